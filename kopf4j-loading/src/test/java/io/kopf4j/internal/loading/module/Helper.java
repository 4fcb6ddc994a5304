package io.kopf4j.internal.loading.module;

/** Not a handler class: a module's other classes are skipped. */
public class Helper {
}
