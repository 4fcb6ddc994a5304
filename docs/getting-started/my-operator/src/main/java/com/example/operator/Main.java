package com.example.operator;

import io.kopf4j.Operator;

/** Runs the operator inside this application, without the kopf4j command: java -jar target/my-operator.jar */
public final class Main {
    private Main() {
    }

    /** Serves the default namespace until the JVM is stopped (Ctrl-C, SIGTERM). */
    public static void main(String[] args) {
        Operator operator = Operator.builder().handlers(new Handlers()).namespaces("default").build();
        Runtime.getRuntime().addShutdownHook(new Thread(operator::stop));
        operator.run();
    }
}
