/**
 * What users declared: {@code HandlerSpec}, the one handler specification that both front-ends
 * (the annotation scanner and the {@code Handler}/{@code SubHandler}/{@code Activity} builders) fill
 * and that alone checks Kopf's rules and messages; the handlers built from it (changing, watching,
 * activity and webhook handlers), the registry and its selection rules, filters, causes, resource
 * selectors and the binding of a method's parameters.
 *
 * <p>Kopf's counterpart: {@code kopf/_core/intents}.
 */
package io.kopf4j.internal.intents;
