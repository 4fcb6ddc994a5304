package io.kopf4j.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A scenario's figures as a markdown table, each beside its goal (an upper limit) and whether it is
 * met, optionally with a column of reference figures (another implementation's, measured
 * elsewhere). Figures without a goal are shown as measured.
 *
 * <pre>{@code
 * GoalTable table = new GoalTable("N = 1000 timers", "Kopf 1.44.6");
 * table.atMost("lag p99 ms", "%.1f", 14.2, 20, "102");
 * table.figure("runs/s", String.format("%.0f", 998.0), "");
 * System.out.println(table.render());
 * }</pre>
 */
final class GoalTable {
    private final String title;
    private final String referenceColumn;   // null: no reference column
    private final List<String[]> rows = new ArrayList<>();

    /** @param referenceColumn the heading of the reference figures, or null for none */
    GoalTable(String title, String referenceColumn) {
        this.title = title;
        this.referenceColumn = referenceColumn;
    }

    /** A figure whose goal is at most {@code goal}; {@code format} formats both, e.g. {@code "%.1f"}. */
    GoalTable atMost(String figure, String format, double measured, double goal, String reference) {
        String verdict = Double.isNaN(measured) ? "not measured" : measured <= goal ? "met" : "not met";
        rows.add(new String[] {figure, format(format, measured), "≤ " + format(format, goal), verdict, reference});
        return this;
    }

    GoalTable atMost(String figure, String format, double measured, double goal) {
        return atMost(figure, format, measured, goal, "");
    }

    /** A figure without a goal, already formatted. */
    GoalTable figure(String figure, String measured, String reference) {
        rows.add(new String[] {figure, measured, "", "", reference});
        return this;
    }

    GoalTable figure(String figure, String measured) {
        return figure(figure, measured, "");
    }

    String render() {
        int columns = referenceColumn == null ? 4 : 5;
        StringBuilder table = new StringBuilder("### " + title + "\n\n| figure | kopf4j | goal | |"
                + (referenceColumn == null ? "" : " " + referenceColumn + " |") + "\n");
        table.append("|---".repeat(columns)).append("|\n");
        for (String[] row : rows) {
            for (int column = 0; column < columns; column++) {
                table.append("| ").append(row[column]).append(' ');
            }
            table.append("|\n");
        }
        return table.toString();
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
