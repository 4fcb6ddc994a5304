package io.kopf4j.internal.structs;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The YAML files a user hands to kopf4j ({@code --crd}): read as documents of plain JSON maps, or
 * rejected with one line that names the file, the line and the column, and what is wrong there,
 * as a compiler names a syntax error; never a parser's stack trace.
 *
 * <pre>{@code
 * List<Map<String, Object>> objects = YamlFiles.objects(Path.of("examples/crd.yaml"));
 * // or IllegalArgumentException: examples/crd.yaml:5:2: while parsing a block mapping: expected <block end>, ...
 * }</pre>
 */
public final class YamlFiles {
    private static final YAMLMapper YAML = new YAMLMapper();

    private YamlFiles() {
    }

    /**
     * The Kubernetes objects of a YAML file of one or many documents (empty documents, such as a
     * leading or trailing {@code ---}, are left out).
     *
     * @param file the file
     * @return each document, a map with {@code apiVersion} and {@code kind}
     * @throws IllegalArgumentException naming the file and where it is wrong, in one line: no YAML there,
     *         a document that is no object or lacks its kind, or a file that cannot be read
     */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> objects(Path file) {
        List<Map<String, Object>> objects = new ArrayList<>();
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e, e);
        }
        try (MappingIterator<Object> documents = YAML.readerFor(Object.class).readValues(text)) {
            for (int number = 1; documents.hasNextValue(); number++) {
                Object document = documents.nextValue();
                if (document == null) {
                    continue;
                }
                if (!(document instanceof Map<?, ?> object) || !(object.get("kind") instanceof String)
                        || !(object.get("apiVersion") instanceof String)) {
                    throw new IllegalArgumentException(file + ": document " + number
                            + " is not a Kubernetes object (an object with apiVersion and kind)");
                }
                objects.add((Map<String, Object>) object);
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + where(e.getLocation()) + ": " + firstLine(e.getOriginalMessage()), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return objects;
    }

    private static String where(JsonLocation location) {
        return location == null || location.getLineNr() < 1 ? "" : ":" + location.getLineNr() + ":" + location.getColumnNr();
    }

    /**
     * The parser's own words on one line: SnakeYAML says what it was doing and what it found, each
     * followed by indented lines that repeat the place and draw it, which the file and line say here.
     */
    private static String firstLine(String message) {
        if (message == null) {
            return "not YAML";
        }
        List<String> words = message.lines().filter(line -> !line.isBlank() && !Character.isWhitespace(line.charAt(0)))
                .map(String::strip).toList();
        return words.isEmpty() ? message.strip() : String.join(": ", words);
    }
}
