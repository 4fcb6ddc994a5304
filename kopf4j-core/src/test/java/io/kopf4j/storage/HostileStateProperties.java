package io.kopf4j.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kopf4j.HostileValues;
import java.util.Map;
import org.instancio.junit.Given;
import org.instancio.junit.GivenProvider;
import org.instancio.junit.InstancioExtension;
import org.instancio.junit.InstancioSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * Whatever anyone who can patch an object writes into Kopf's annotations and status fields: the
 * storages read a state, or say it is unreadable and where (which the operator takes as absent);
 * nothing else comes out of them, so that no object's garbage ends its handling.
 */
@ExtendWith(InstancioExtension.class)
class HostileStateProperties {
    /** What may be in an annotation: Kopf's state, or garbage. */
    static final class Garbage implements GivenProvider {
        @Override
        public Object provide(ElementContext context) {
            return HostileValues.annotationText(context.random());
        }
    }

    /** Any JSON value, where a progress record is expected in the status. */
    static final class AnyJson implements GivenProvider {
        @Override
        public Object provide(ElementContext context) {
            return HostileValues.json(context.random(), 3);
        }
    }

    @ParameterizedTest
    @InstancioSource(samples = 300)
    void theDiffBaseIsReadOrUnreadableNamingWhere(@Given(Garbage.class) String text) {
        Map<String, Object> body = Map.of("metadata", Map.of("annotations", Map.of("kopf.zalando.org/last-handled-configuration", text)),
                "status", Map.of("kopf", Map.of("last-handled-configuration", text)));
        for (DiffBaseStorage storage : new DiffBaseStorage[]{new AnnotationsDiffBaseStorage("kopf.zalando.org"),
                new StatusDiffBaseStorage(), new MultiDiffBaseStorage(java.util.List.of(new StatusDiffBaseStorage(),
                        new AnnotationsDiffBaseStorage("kopf.zalando.org")))}) {
            Throwable failure = catchThrowable(() -> storage.fetch(body));
            assertThat(failure).as("reading %s", text).satisfiesAnyOf(
                    nothing -> assertThat(nothing).isNull(),
                    unreadable -> assertThat(unreadable).isInstanceOf(UnreadableStateException.class)
                            .hasMessageMatching("(?s)(annotation 'kopf.zalando.org/last-handled-configuration'|field "
                                    + "'status.kopf.last-handled-configuration') cannot be read \\(.*"));
        }
    }

    @ParameterizedTest
    @InstancioSource(samples = 300)
    void aProgressRecordIsReadOrUnreadableNamingWhereAndAnyFieldTypeIsTolerated(@Given(Garbage.class) String text,
            @Given(AnyJson.class) Object statusRecord) {
        Map<String, Object> progress = new java.util.HashMap<>();
        progress.put("create", statusRecord);
        Map<String, Object> body = Map.of("metadata", Map.of("annotations", Map.of("kopf.zalando.org/create", text)),
                "status", Map.of("kopf", Map.of("progress", progress)));
        for (ProgressStorage storage : new ProgressStorage[]{new AnnotationsProgressStorage("kopf.zalando.org", true),
                new StatusProgressStorage(), MultiProgressStorage.smart("kopf.zalando.org")}) {
            Throwable failure = catchThrowable(() -> storage.fetch("create", body));
            assertThat(failure).as("reading %s and %s", text, statusRecord).satisfiesAnyOf(
                    nothing -> assertThat(nothing).isNull(),
                    unreadable -> assertThat(unreadable).isInstanceOf(UnreadableStateException.class)
                            .hasMessageStartingWith("annotation 'kopf.zalando.org/create' cannot be read ("));
        }
    }
}
