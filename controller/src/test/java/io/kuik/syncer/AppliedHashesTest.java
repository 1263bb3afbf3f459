package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import org.junit.jupiter.api.Test;

class AppliedHashesTest {

  static final Pair A = new Pair(new ResourceId(RoutingKind.IMAGE_MIRROR, "m"), "a");
  static final Pair B = new Pair(new ResourceId(RoutingKind.IMAGE_MIRROR, "m"), "b");

  private final AppliedHashes hashes = new AppliedHashes();

  @Test
  void remembersTheLastHashAppliedPerPair() {
    assertNull(hashes.last(A));
    hashes.applied(A, 1L);
    assertEquals(1L, hashes.last(A));
    hashes.applied(A, 2L);
    assertEquals(2L, hashes.last(A));
    assertNull(hashes.last(B), "per pair");
  }

  @Test
  void aForgottenPairHasNoHash() {
    hashes.applied(A, 1L);
    hashes.forget(A);
    assertNull(hashes.last(A));
  }
}
