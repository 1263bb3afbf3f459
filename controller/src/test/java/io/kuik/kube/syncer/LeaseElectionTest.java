package io.kuik.kube.syncer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.LogLines;
import io.kuik.kube.MockCluster;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One candidacy for the syncer's Lease on the mock API server, as its log tells it
 * (docs/operations.md#logs): acquired, held by another, given back on close, lost to another; each
 * end of leading told to the process once.
 */
class LeaseElectionTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final String NAMESPACE = "kuik-system";
  private static final LeaseSettings FAST =
      new LeaseSettings(
          true,
          "kuik-secret-syncer",
          Duration.ofSeconds(2),
          Duration.ofSeconds(1),
          Duration.ofMillis(200));

  private final MockCluster cluster = new MockCluster();
  private final LogLines log = LogLines.of(LeaseElection.class);
  private final AtomicInteger started = new AtomicInteger();
  private final AtomicInteger stopped = new AtomicInteger();
  private LeaseElection first;
  private LeaseElection second;

  @AfterEach
  void stop() {
    for (LeaseElection election : new LeaseElection[] {first, second}) {
      if (election != null) {
        election.close();
      }
    }
    log.close();
    cluster.close();
  }

  private LeaseElection candidate(String identity) {
    return new LeaseElection(
        cluster.client(),
        NAMESPACE,
        FAST,
        identity,
        started::incrementAndGet,
        stopped::incrementAndGet);
  }

  private List<String> said(String text) {
    return log.containing(text);
  }

  @Test
  void acquiredAndGivenBackOnCloseEachToldOnce() throws Exception {
    first = candidate("replica-a");
    first.start();
    await("leading").atMost(PATIENCE).until(() -> started.get() == 1);
    assertEquals(
        List.of("INFO acquired the lease kuik-system/kuik-secret-syncer: writing"),
        said("acquired"));

    first.close();
    await("given back").atMost(PATIENCE).until(() -> stopped.get() == 1);
    assertEquals(List.of("INFO gave the lease kuik-system/kuik-secret-syncer back"), said("gave"));
    assertEquals(List.of(), said("lost"));
    first.close(); // twice: nothing more
    Thread.sleep(500);
    assertEquals(1, stopped.get());
    // Its own holding is not news.
    assertEquals(List.of(), said("is held by"), log.all().toString());
  }

  @Test
  void aStandbyNamesTheLeader() {
    first = candidate("replica-a");
    first.start();
    await("leading").atMost(PATIENCE).until(() -> started.get() == 1);

    second = candidate("replica-b");
    second.start();
    await("the leader named").atMost(PATIENCE).until(() -> !said("is held by replica-a").isEmpty());
    assertTrue(
        said("is held by")
            .contains("INFO the lease kuik-system/kuik-secret-syncer is held by replica-a"),
        log.all().toString());
    assertEquals(1, started.get(), "one leader");
  }

  @Test
  void aLeaseTakenByAnotherIsLostOnceAndSaysSo() {
    first = candidate("replica-a");
    first.start();
    await("leading").atMost(PATIENCE).until(() -> started.get() == 1);

    cluster.takeLeaseOver(NAMESPACE, FAST.name(), "replica-z");

    await("lost").atMost(PATIENCE).until(() -> stopped.get() == 1);
    assertEquals(
        List.of("WARNING lost the lease kuik-system/kuik-secret-syncer: writing stopped"),
        said("lost"));
    assertEquals(List.of(), said("gave"));
  }

  @Test
  void closedBeforeItStoodItGivesNothingBack() {
    first = candidate("replica-a");
    assertDoesNotThrow(first::close);
    assertEquals(0, stopped.get());
  }
}
