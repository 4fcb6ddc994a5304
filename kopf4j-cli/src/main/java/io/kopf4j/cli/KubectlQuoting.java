package io.kopf4j.cli;

import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;
import java.util.regex.Pattern;

/**
 * Which strings the manifests quote: Jackson's rule (YAML's keywords such as {@code on} and
 * {@code null}, special characters), and every string that kubectl's YAML reader (go-yaml v2, with
 * Go's number syntax) would read as a number: {@code 123}, {@code 1e3}, {@code 0x1f}, {@code 0b101}
 * and {@code 0o17} are all valid namespace names. Written plain, {@code namespace: 123} is
 * rejected by kubectl ("cannot unmarshal number into Go struct field ... of type string").
 *
 * <pre>{@code
 * KubectlQuoting.INSTANCE.needToQuoteValue("1e3");   // true
 * KubectlQuoting.INSTANCE.needToQuoteValue("ops");   // false
 * }</pre>
 */
final class KubectlQuoting extends StringQuotingChecker.Default {
    static final KubectlQuoting INSTANCE = new KubectlQuoting();
    private static final long serialVersionUID = 1L;
    /** Go's integers (with base prefixes) and floats, as go-yaml v2 resolves a plain scalar. */
    private static final Pattern GO_NUMBER = Pattern.compile(
            "[-+]?(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|[0-9][0-9_]*(\\.[0-9_]*)?([eE][-+]?[0-9]+)?|\\.[0-9_]+([eE][-+]?[0-9]+)?)");

    @Override
    public boolean needToQuoteValue(String value) {
        return super.needToQuoteValue(value) || GO_NUMBER.matcher(value).matches();
    }

    /** {@return the value as a YAML scalar of a hand-written document: plain, or double-quoted where it must be} */
    String scalar(String value) {
        return needToQuoteValue(value) ? "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" : value;
    }
}
