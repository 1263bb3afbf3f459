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
    assertTrue(hashes.needsApply(A, 1L));
    hashes.applied(A, 1L);
    assertFalse(hashes.needsApply(A, 1L));
    assertTrue(hashes.needsApply(A, 2L));
    assertTrue(hashes.needsApply(B, 1L), "per pair");
  }

  @Test
  void aForgottenPairNeedsAnApplyAgain() {
    hashes.applied(A, 1L);
    hashes.forget(A);
    assertTrue(hashes.needsApply(A, 1L));
  }
}
