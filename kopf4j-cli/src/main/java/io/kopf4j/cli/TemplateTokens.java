package io.kopf4j.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Helm template expressions in the YAML that Jackson writes: each goes into the objects as a token, a
 * plain word that Jackson writes as it is, and {@link #resolve} puts the expression in its place. So the
 * chart's templates are the manifests' objects, built by the same code ({@link Manifests},
 * {@link DeploymentSpec}), with expressions where the chart's values decide.
 *
 * <pre>{@code
 * TemplateTokens tokens = new TemplateTokens();
 * Map<String, Object> spec = Map.of("replicas", tokens.scalar("{{ $.Values.replicas }}"),
 *         "resources", tokens.block("toYaml $.Values.resources"));
 * String template = tokens.resolve(yaml(spec));
 * // replicas: {{ $.Values.replicas }}
 * // resources: {{- toYaml $.Values.resources | nindent 2 }}
 * }</pre>
 */
final class TemplateTokens {
    private static final Pattern TOKEN = Pattern.compile("HELMTOKEN\\d+X");
    /** A line with a block token as a key's value, or with an entries token as a key. */
    private static final Pattern BLOCK_LINE = Pattern.compile("(?m)^( *)(- )?([^\\n]*?)(HELMTOKEN\\d+X)(: \"\")?$");

    private final Map<String, String> scalars = new LinkedHashMap<>();
    private final Map<String, String> blocks = new LinkedHashMap<>();
    private final Map<String, String> entries = new LinkedHashMap<>();

    /**
     * {@return a token for a value that the expression makes}
     *
     * @param expression the value's text, e.g. {@code {{ $.Values.replicas }}}, or {@code "{{ ... }}"} quoted
     */
    String scalar(String expression) {
        return put(scalars, expression);
    }

    /**
     * {@return a token for the value of a key that spans lines: the YAML that the pipeline makes, indented under the key}
     *
     * @param pipeline e.g. {@code toYaml $.Values.resources} or {@code include "op.args" $}
     */
    String block(String pipeline) {
        return put(blocks, pipeline);
    }

    /**
     * {@return a token to use as a key, with an empty string as its value: the entries that the pipeline makes take its line}
     *
     * @param pipeline e.g. {@code include "op.labels" $}
     */
    String entries(String pipeline) {
        return put(entries, pipeline);
    }

    /**
     * The YAML with each token replaced by its expression.
     *
     * @param yaml what Jackson (or a hand-written document) wrote with the tokens
     * @return the template text
     * @throws IllegalStateException if a token is left, out of the places it was made for
     */
    String resolve(String yaml) {
        Matcher line = BLOCK_LINE.matcher(yaml);
        StringBuilder resolved = new StringBuilder();
        while (line.find()) {
            String token = line.group(4);
            String indent = line.group(1) + (line.group(2) == null ? "" : "  ");
            String replacement;
            if (blocks.containsKey(token) && line.group(5) == null && line.group(3).endsWith(": ")) {
                replacement = line.group(1) + (line.group(2) == null ? "" : "- ") + line.group(3).stripTrailing()
                        + " {{- " + blocks.get(token) + " | nindent " + (indent.length() + 2) + " }}";
            } else if (entries.containsKey(token) && line.group(5) != null && line.group(3).isEmpty()) {
                replacement = indent + "{{- " + entries.get(token) + " | nindent " + indent.length() + " }}";
            } else {
                replacement = line.group();
            }
            line.appendReplacement(resolved, Matcher.quoteReplacement(replacement));
        }
        line.appendTail(resolved);
        Matcher scalar = TOKEN.matcher(resolved.toString());
        StringBuilder text = new StringBuilder();
        while (scalar.find()) {
            String expression = scalars.get(scalar.group());
            if (expression == null) {
                throw new IllegalStateException("the template token " + scalar.group() + " is out of its place in:\n" + yaml);
            }
            scalar.appendReplacement(text, Matcher.quoteReplacement(expression));
        }
        scalar.appendTail(text);
        return text.toString();
    }

    /**
     * {@return the text as Helm renders it as it is: each {@code {{} of it is written as a template's string}
     *
     * @param text e.g. a rule's comment, or an argument, as the operator's classes and options make it
     */
    static String literal(String text) {
        return text.replace("{{", "{{ \"{{\" }}");
    }

    private String put(Map<String, String> tokens, String expression) {
        String token = "HELMTOKEN" + (scalars.size() + blocks.size() + entries.size()) + "X";
        tokens.put(token, expression);
        return token;
    }
}
