package io.kuik.sim.world;

/**
 * What happens to an object's dependents when it is deleted. Foreground is accepted and behaves as
 * Background here: dependents are deleted after their owner, not before.
 */
public enum PropagationPolicy {
  BACKGROUND,
  FOREGROUND,
  ORPHAN
}
