package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import org.junit.jupiter.api.Test;

class AppliedHashesTest {

  static final Pair A = new Pair(new ResourceId(RoutingKind.IMAGE_MIRROR, "m"), "a");
  static final Pair B = new Pair(new ResourceId(RoutingKind.IMAGE_MIRROR, "m"), "b");

  private final AppliedHashes hashes = new AppliedHashes();

  @Test
  void aPairNeedsAnApplyUntilItsContentWasAppliedAndAgainWhenItChanges() {
    assertTrue(hashes.needsApply(A, "h1"));
    hashes.applied(A, "h1");
    assertFalse(hashes.needsApply(A, "h1"));
    assertTrue(hashes.needsApply(A, "h2"));
    assertTrue(hashes.needsApply(B, "h1"), "per pair");
  }

  @Test
  void aForgottenPairNeedsAnApplyAgain() {
    hashes.applied(A, "h1");
    hashes.forget(A);
    assertTrue(hashes.needsApply(A, "h1"));
  }
}
