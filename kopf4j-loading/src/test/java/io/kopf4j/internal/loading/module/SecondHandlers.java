package io.kopf4j.internal.loading.module;

import io.kopf4j.On;

/** Another handler class of the module. */
public class SecondHandlers {
    @On.Delete("kopfexamples")
    public void delete() {
    }
}
