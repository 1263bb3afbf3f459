package io.kuik.sim.world;

/**
 * What happens to an object's dependents when it is deleted (metav1.DeletionPropagation):
 * Background deletes the owner now and its dependents after; Foreground keeps the owner, with the
 * "foregroundDeletion" finalizer, until its dependents that set {@code blockOwnerDeletion} are
 * gone; Orphan keeps the owner, with the "orphan" finalizer, until its dependents lost their
 * reference to it, and leaves them.
 */
public enum PropagationPolicy {
  BACKGROUND,
  FOREGROUND,
  ORPHAN
}
