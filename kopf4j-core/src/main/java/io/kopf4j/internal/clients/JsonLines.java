package io.kopf4j.internal.clients;

import io.kopf4j.internal.structs.Json;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Splits the bytes of a watch stream, as they arrive in buffers of any size, into its lines (one
 * JSON object each) and parses each line once, straight from its UTF-8 bytes into a map.
 *
 * <p>By hand rather than with fabric8's watch, which decodes every buffer into characters on its
 * own (a character split between two buffers is garbled), copies each line into a string and then
 * parses it twice (into a model, which then is converted into a map). A newline byte never occurs
 * inside a multi-byte UTF-8 character, so the bytes are split at it without decoding them.
 *
 * <pre>{@code
 * JsonLines lines = new JsonLines(event -> System.out.println(event.get("type")), unreadable -> { });
 * lines.feed(ByteBuffer.wrap("{\"type\":\"ADDED\",\"object\":{}}\n{\"ty".getBytes(UTF_8)));
 * lines.feed(ByteBuffer.wrap("pe\":\"BOOKMARK\",\"object\":{}}\n".getBytes(UTF_8)));  // ADDED, then BOOKMARK
 * }</pre>
 */
final class JsonLines {
    private final Consumer<Map<String, Object>> lines;
    private final Consumer<UnreadableObject> unreadable;
    /** The start of a line whose end has not come yet. */
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();

    /**
     * @param lines every line, parsed
     * @param unreadable the watch-events whose objects cannot be parsed (too deep, say): skipped, not
     *                   failing the stream, so that one object never stops the watch of all others
     */
    JsonLines(Consumer<Map<String, Object>> lines, Consumer<UnreadableObject> unreadable) {
        this.lines = lines;
        this.unreadable = unreadable;
    }

    /** Passes on every line that this buffer completes; keeps its unfinished last line for the next buffer. */
    void feed(ByteBuffer buffer) {
        byte[] bytes;
        int from;
        int to;
        if (buffer.hasArray()) {
            bytes = buffer.array();
            from = buffer.arrayOffset() + buffer.position();
            to = buffer.arrayOffset() + buffer.limit();
        } else {
            bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            from = 0;
            to = bytes.length;
        }
        buffer.position(buffer.limit());
        int lineStart = from;
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\n') {
                if (partial.size() == 0) {
                    parse(bytes, lineStart, i - lineStart);
                } else {
                    partial.write(bytes, lineStart, i - lineStart);
                    parsePartial();
                }
                lineStart = i + 1;
            }
        }
        partial.write(bytes, lineStart, to - lineStart);
    }

    /** At the end of the stream: a last line without its newline is complete all the same. */
    void finish() {
        parsePartial();
    }

    private void parsePartial() {
        byte[] line = partial.toByteArray();
        partial.reset();
        parse(line, 0, line.length);
    }

    private void parse(byte[] bytes, int offset, int length) {
        if (blank(bytes, offset, length)) {
            return;
        }
        Map<String, Object> line;
        try {
            line = Json.parseMap(bytes, offset, length);
        } catch (IllegalArgumentException failure) {
            ObjectScan.Event event = ObjectScan.event(bytes, offset, length, failure);
            if (event == null) {
                throw failure;   // not a watch-event at all: the stream is broken, and ends
            }
            if (event.unreadable() != null) {
                unreadable.accept(event.unreadable());
                return;
            }
            line = event.line();   // the object within the limits on its own, as a listed one is
        }
        lines.accept(line);
    }

    /** An empty line, or a {@code \r} of a CRLF ending: nothing to parse. */
    private static boolean blank(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] != ' ' && bytes[i] != '\r' && bytes[i] != '\t') {
                return false;
            }
        }
        return true;
    }
}
