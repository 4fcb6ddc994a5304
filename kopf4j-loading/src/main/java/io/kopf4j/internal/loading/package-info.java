/**
 * From the command line to handler classes: the run options ({@code RunOptions}, picocli), handler
 * sources ({@code HandlerSources}: {@code .java} files compiled in memory by {@code SourceCompiler},
 * jars, classes and modules), the class cache of compiled sources ({@code ClassCache}), the
 * resources beside them, and the operator's plan ({@code OperatorPlan}) that {@code kopf4j run},
 * {@code kopf4j manifests} and {@code kopf4j check-rbac} share. Exported to kopf4j-testing only (its
 * {@code KopfRunner} runs an operator as the command does); not an API.
 *
 * <p>Kopf's counterpart: {@code kopf/cli.py}, {@code kopf/_cogs/helpers/loaders.py}.
 */
package io.kopf4j.internal.loading;
