package io.kuik.sim.world;

import java.util.Objects;

/**
 * A deletion's options: the propagation policy and optional preconditions on the object's uid and
 * resourceVersion (a mismatch is 409 Conflict).
 */
public record DeleteOptions(PropagationPolicy propagation, String uid, String resourceVersion) {

  public DeleteOptions {
    Objects.requireNonNull(propagation, "propagation");
  }

  public static DeleteOptions background() {
    return new DeleteOptions(PropagationPolicy.BACKGROUND, null, null);
  }

  public static DeleteOptions foreground() {
    return new DeleteOptions(PropagationPolicy.FOREGROUND, null, null);
  }

  public static DeleteOptions orphan() {
    return new DeleteOptions(PropagationPolicy.ORPHAN, null, null);
  }

  public static DeleteOptions of(PropagationPolicy propagation) {
    return new DeleteOptions(propagation, null, null);
  }

  public DeleteOptions withUid(String uid) {
    return new DeleteOptions(propagation, uid, resourceVersion);
  }

  public DeleteOptions withResourceVersion(String resourceVersion) {
    return new DeleteOptions(propagation, uid, resourceVersion);
  }
}
