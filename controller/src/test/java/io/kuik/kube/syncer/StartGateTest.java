package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StartGateTest {

  private final AtomicInteger starts = new AtomicInteger();
  private final StartGate gate = new StartGate(starts::incrementAndGet);

  @Test
  void startsOnlyOnceSyncedLeadingAndBounded() {
    gate.synced();
    gate.bounded();
    assertEquals(0, starts.get(), "synced but standing by");

    gate.leading();
    assertEquals(1, starts.get());
  }

  @Test
  void startsWhicheverComesLast() {
    gate.leading();
    gate.bounded();
    assertEquals(0, starts.get(), "leading but the informers are still listing");

    gate.synced();
    assertEquals(1, starts.get());
  }

  @Test
  void waitsForTheAdmissionPolicy() {
    gate.leading();
    gate.synced();
    assertEquals(0, starts.get(), "synced and leading, but the policy is not there yet");

    gate.bounded();
    assertEquals(1, starts.get());
  }

  @Test
  void startsOnlyOnce() {
    gate.leading();
    gate.bounded();
    gate.synced();
    gate.synced();
    gate.leading();
    gate.bounded();

    assertEquals(1, starts.get());
  }
}
