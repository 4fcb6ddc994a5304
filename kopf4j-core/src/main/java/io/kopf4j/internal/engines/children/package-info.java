/**
 * Children (WIP on this branch): {@code ChildrenEngine} watches the declared kinds, narrowed to this
 * operator's label, into a {@code ChildCache}, and runs the parents again through a
 * {@code Coalescer}; {@code DesiredChildren} makes a children handler's result ready to apply,
 * {@code OwnedFields} tells whether an apply would change anything, {@code ChildWrites} applies and
 * prunes.
 *
 * <p>Kopf's counterpart: none; Kopf leaves children to hand-written handlers ({@code kopf/_kits/hierarchies.py}
 * for their ownership, an index or {@code @kopf.on.event} for their state).
 */
package io.kopf4j.internal.engines.children;
