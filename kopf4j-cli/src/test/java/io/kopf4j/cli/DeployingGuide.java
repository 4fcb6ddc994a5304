package io.kopf4j.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The code blocks of docs/deploying.md, so that tests run what the guide shows, as it shows it.
 *
 * <pre>{@code
 * String plugin = DeployingGuide.block("xml", "<artifactId>crd-generator-maven-plugin</artifactId>");
 * }</pre>
 */
final class DeployingGuide {
    /** Tests run in the module's folder; the guide is the repository's. */
    static final Path PATH = Path.of("../docs/deploying.md");

    private DeployingGuide() {
    }

    /** The one block of this language that contains the text, without its fences. */
    static String block(String language, String containing) {
        List<String> found = blocks(language).stream().filter(block -> block.contains(containing)).toList();
        if (found.size() != 1) {
            throw new IllegalStateException(PATH + " has " + found.size() + " ```" + language + " blocks with '" + containing
                    + "', expected one");
        }
        return found.getFirst();
    }

    private static List<String> blocks(String language) {
        List<String> blocks = new ArrayList<>();
        StringBuilder block = null;
        try {
            for (String line : Files.readAllLines(PATH)) {
                if (block == null && line.equals("```" + language)) {
                    block = new StringBuilder();
                } else if (block != null && line.equals("```")) {
                    blocks.add(block.toString());
                    block = null;
                } else if (block != null) {
                    block.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return blocks;
    }
}
