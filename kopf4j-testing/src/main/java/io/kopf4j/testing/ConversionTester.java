package io.kopf4j.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kopf4j.internal.engines.conversion.ConversionEngine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Tests an operator's {@code @On.Convert} methods without a cluster, exactly as its conversion
 * webhook runs them: the same checks at the start (hub and spoke, both directions), the same
 * metadata and unknown fields kept, the same record of what a version cannot hold. A round trip
 * through every other version must give the sample back; a field that changed or went missing is
 * named with its path and the versions it went through.
 *
 * <pre>{@code
 * ConversionTester conversions = ConversionTester.of(new WidgetConversions());
 * conversions.assertRoundTrip(v1Widget, v1alpha1Widget);                  // v1 → v1alpha1 → v1, ...
 * v1.Widget converted = conversions.convert(v1alpha1Widget, v1.Widget.class);
 * ConversionTester.of(new WidgetConversions()).withoutRecord().assertRoundTrip(v1Widget);
 * // AssertionError: v1 → v1alpha1 → v1 loses spec.size.unit: "Mi" came back as "Gi"
 * }</pre>
 */
public final class ConversionTester {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final String RECORD = "kopf4j.dev/conversion-data";

    private final List<Object> targets;
    private final ConversionEngine engine;
    private final boolean keepsLostFields;

    private ConversionTester(List<Object> targets, boolean keepsLostFields) {
        this.targets = targets;
        this.keepsLostFields = keepsLostFields;
        this.engine = ConversionEngine.of(targets, keepsLostFields);
    }

    /**
     * The conversions of these classes or objects, as the operator registers them.
     *
     * @param targets classes (made with their no-argument constructor) or instances with {@code @On.Convert} methods
     * @return the tester
     * @throws io.kopf4j.InvalidHandlerException as the operator's start would
     */
    public static ConversionTester of(Object... targets) {
        return new ConversionTester(List.of(targets), true);
    }

    /**
     * The same conversions without kopf4j's record of what a version cannot hold: a round trip then
     * shows what the versions themselves lose (and what the annotation {@code kopf4j.dev/conversion-data}
     * carries for them on the cluster).
     *
     * @return a new tester
     */
    public ConversionTester withoutRecord() {
        return new ConversionTester(targets, false);
    }

    /**
     * Converts a sample to another version's class, as the webhook would.
     *
     * @param sample an object of one version
     * @param type the class of the version to convert it to
     * @param <T> that class
     * @return the converted object
     * @throws AssertionError with the conversion's message if it fails
     */
    public <T extends HasMetadata> T convert(HasMetadata sample, Class<T> type) {
        return JSON.convertValue(convert(json(sample), HasMetadata.getApiVersion(type)), type);
    }

    /**
     * Converts each sample to every other version of its kind and back, and fails on the first
     * field that does not come back as it was.
     *
     * @param samples objects of any versions, with the fields worth keeping
     * @throws AssertionError naming the sample, the versions and the field
     */
    public void assertRoundTrip(HasMetadata... samples) {
        for (HasMetadata sample : samples) {
            Map<String, Object> original = json(sample);
            original.putIfAbsent("metadata", new LinkedHashMap<>());   // the webhook always answers with one
            String apiVersion = HasMetadata.getApiVersion(sample.getClass());
            String group = HasMetadata.getGroup(sample.getClass());
            String version = HasMetadata.getVersion(sample.getClass());
            List<String> versions = engine.versions(group, sample.getKind());
            if (versions.isEmpty()) {
                throw new AssertionError("No conversions of " + sample.getKind() + "." + group + " in " + targets);
            }
            for (String other : versions) {
                if (!other.equals(version)) {
                    String path = version + " → " + other + " → " + version;
                    Map<String, Object> there = convert(original, group + "/" + other, path);
                    Map<String, Object> back = convert(there, apiVersion, path);
                    compare(path, List.of(), withoutRecord(original), withoutRecord(back));
                }
            }
        }
    }

    private Map<String, Object> convert(Map<String, Object> object, String apiVersion) {
        return convert(object, apiVersion, object.get("apiVersion") + " → " + apiVersion);
    }

    private Map<String, Object> convert(Map<String, Object> object, String apiVersion, String path) {
        try {
            return engine.convert(object, apiVersion);
        } catch (IllegalArgumentException e) {
            throw new AssertionError(path + (keepsLostFields ? "" : " (without the record)") + " fails: " + e.getMessage(), e);
        }
    }

    /** The record is kopf4j's, not the sample's: a round trip that needs none leaves none. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutRecord(Map<String, Object> object) {
        Map<String, Object> copy = new LinkedHashMap<>(object);
        if (copy.get("metadata") instanceof Map<?, ?> metadata && metadata.get("annotations") instanceof Map<?, ?> annotations
                && annotations.containsKey(RECORD)) {
            Map<String, Object> kept = new LinkedHashMap<>((Map<String, Object>) annotations);
            kept.remove(RECORD);
            Map<String, Object> meta = new LinkedHashMap<>((Map<String, Object>) metadata);
            if (kept.isEmpty()) {
                meta.remove("annotations");
            } else {
                meta.put("annotations", kept);
            }
            copy.put("metadata", meta);
        }
        return copy;
    }

    private void compare(String path, List<String> field, Object was, Object back) {
        if (was instanceof Map<?, ?> map && back instanceof Map<?, ?> backMap) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                List<String> next = new ArrayList<>(field);
                next.add(String.valueOf(entry.getKey()));
                compare(path, next, entry.getValue(), backMap.containsKey(entry.getKey()) ? backMap.get(entry.getKey()) : MISSING);
            }
            for (Object key : backMap.keySet()) {
                if (!map.containsKey(key)) {
                    List<String> next = new ArrayList<>(field);
                    next.add(String.valueOf(key));
                    throw new AssertionError(path + " adds " + String.join(".", next) + ": " + JSON.asJson(backMap.get(key)));
                }
            }
        } else if (back == MISSING) {
            throw new AssertionError(path + (keepsLostFields ? "" : " (without the record)") + " loses " + String.join(".", field)
                    + ": " + JSON.asJson(was));
        } else if (!Objects.equals(JSON.asJson(was), JSON.asJson(back))) {
            throw new AssertionError(path + (keepsLostFields ? "" : " (without the record)") + " loses " + String.join(".", field)
                    + ": " + JSON.asJson(was) + " came back as " + JSON.asJson(back));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(HasMetadata object) {
        return JSON.convertValue(object, Map.class);
    }

    private static final Object MISSING = new Object();
}
