package io.kopf4j.testing;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link KopfTest}: applies the CRDs once per class, makes a
 * {@link KopfHarness} (a namespace and the operator serving it) per class or per method, and
 * resolves {@link KopfHarness}, {@link KopfRunner} and {@link LocalCluster} parameters. Registered
 * by the annotation; not used directly.
 *
 * <pre>{@code
 * @KopfTest(crds = "crd.yaml", handlers = Example.class)
 * class ExampleTest { ... }
 * }</pre>
 */
public final class KopfExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback,
        ParameterResolver {
    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(KopfExtension.class);

    /** An extension as JUnit makes one for {@code @KopfTest}. */
    public KopfExtension() {
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        KopfTest test = settings(context);
        LocalCluster cluster = LocalClusterExtension.cluster(context, test.controllers());
        if (test.crds().length > 0) {
            cluster.apply(Arrays.stream(test.crds()).map(Path::of).toArray(Path[]::new));
        }
        if (test.scope() == KopfTest.Scope.CLASS) {
            open(context, test, cluster);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        KopfTest test = settings(context);
        if (test.scope() == KopfTest.Scope.METHOD) {
            open(context, test, LocalClusterExtension.cluster(context, test.controllers()));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (settings(context).scope() == KopfTest.Scope.METHOD) {
            close(context);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (settings(context).scope() == KopfTest.Scope.CLASS) {
            close(context);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == KopfHarness.class || type == KopfRunner.class || type == LocalCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == LocalCluster.class) {
            return LocalClusterExtension.cluster(context, settings(context).controllers());
        }
        KopfHarness harness = context.getStore(STORE).get(KopfHarness.class, KopfHarness.class);
        if (harness == null) {
            throw new ExtensionConfigurationException("no KopfHarness here: with @KopfTest(scope = METHOD),"
                    + " only test methods (and @BeforeEach/@AfterEach) get one");
        }
        return type == KopfRunner.class ? harness.runner() : harness;
    }

    private static void open(ExtensionContext context, KopfTest test, LocalCluster cluster) {
        List<String> args = new ArrayList<>(List.of(test.args()));
        args.addAll(List.of(test.sources()));
        Arrays.stream(test.handlers()).map(Class::getName).forEach(args::add);
        if (args.size() == test.args().length && test.start()) {
            throw new ExtensionConfigurationException("@KopfTest on " + context.getRequiredTestClass().getName()
                    + " names no handlers: give handlers = {...} or sources = {...}");
        }
        KopfHarness harness = new KopfHarness(cluster, LocalClusterExtension.newNamespace(cluster, context), args,
                Duration.ofSeconds(test.timeout()));
        context.getStore(STORE).put(KopfHarness.class, harness);
        if (test.start()) {
            harness.start();
        }
    }

    private static void close(ExtensionContext context) {
        KopfHarness harness = context.getStore(STORE).remove(KopfHarness.class, KopfHarness.class);
        if (harness != null) {
            harness.close();
        }
    }

    private static KopfTest settings(ExtensionContext context) {
        return AnnotationSupport.findAnnotation(context.getRequiredTestClass(), KopfTest.class)
                .orElseThrow(() -> new ExtensionConfigurationException("KopfExtension is registered by @KopfTest"));
    }
}
