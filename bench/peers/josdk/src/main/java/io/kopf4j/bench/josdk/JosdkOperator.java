package io.kopf4j.bench.josdk;

import io.javaoperatorsdk.operator.Operator;

/**
 * The load benchmark's Java Operator SDK operator: {@link BenchReconciler} in one namespace, JOSDK's
 * defaults otherwise; the cluster from {@code $KUBECONFIG} (fabric8's own configuration, as a user's
 * operator finds it).
 *
 * <pre>{@code
 * KUBECONFIG=... java -cp bench/peers/josdk/target/classes:$CLASSPATH io.kopf4j.bench.josdk.JosdkOperator NAMESPACE
 * }</pre>
 */
public final class JosdkOperator {
    private JosdkOperator() {
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: JosdkOperator NAMESPACE");
            System.exit(2);
        }
        Operator operator = new Operator();
        operator.register(new BenchReconciler(), configuration -> configuration.settingNamespace(args[0]));
        operator.start();
    }
}
