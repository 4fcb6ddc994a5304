package io.kopf4j.internal.loading.module;

import io.kopf4j.On;

/** A module's handler class, for {@code -m io.kopf4j.internal.loading.module}. */
public class FirstHandlers {
    @On.Create("kopfexamples")
    public void create() {
    }
}
