package io.kopf4j.loading.module;

import io.kopf4j.On;

/** A module's handler class, for {@code -m io.kopf4j.loading.module}. */
public class FirstHandlers {
    @On.Create("kopfexamples")
    public void create() {
    }
}
