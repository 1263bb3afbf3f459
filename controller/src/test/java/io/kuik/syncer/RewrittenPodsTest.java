package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which pods count as live for an OnFailure resource: a pod that exists and is neither Succeeded
 * nor Failed (the phases of the pod lifecycle; a pod being deleted is on its way out too).
 */
class RewrittenPodsTest {

  private static Pod pod(String phase, boolean deleting) {
    PodBuilder pod = new PodBuilder().withNewMetadata().withName("web-1").endMetadata();
    if (deleting) {
      pod.editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata();
    }
    if (!phase.equals("none")) {
      pod.withNewStatus().withPhase(phase).endStatus();
    }
    return pod.build();
  }

  @ParameterizedTest(name = "if the phase is {0} and deleting is {1}, expect live {2}")
  @CsvSource({
    "none, false, true",
    "Pending, false, true",
    "Running, false, true",
    "Unknown, false, true",
    "Succeeded, false, false",
    "Failed, false, false",
    "Running, true, false",
  })
  void aPodIsLiveUntilItSucceedsFailsOrIsDeleted(String phase, boolean deleting, boolean live) {
    assertEquals(live, RewrittenPods.isLive(pod(phase, deleting)));
  }
}
