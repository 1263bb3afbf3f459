package io.kuik.kube.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.kuik.kube.webhook.WatchedPods.Watched;
import io.kuik.webhook.GateBound;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The record the webhook's pod cache keeps, and the minimal pod it hands back to fabric8 in its
 * place: the pod reads back as the same record, whatever the gate's place, the creation and the
 * deletion.
 */
class WatchedPodsTest {

  private static final Instant CREATED = Instant.parse("2026-12-05T10:00:00Z");

  static List<Watched> records() {
    return List.of(
        new Watched("team-a", "web-1", "uid-1", CREATED, false, 0),
        new Watched("team-a", "web-2", "uid-2", CREATED, false, 2),
        new Watched("team-a", "web-3", "uid-3", CREATED, false, -1),
        new Watched("team-a", "web-4", "uid-4", null, false, 1),
        new Watched("team-a", "web-5", "uid-5", CREATED, true, 0));
  }

  @ParameterizedTest
  @MethodSource("records")
  void aRecordsPodReadsBackAsTheSameRecord(Watched record) {
    Pod pod = WatchedPods.pod(record, "42");

    assertEquals(record, WatchedPods.record(pod));
    assertEquals("42", pod.getMetadata().getResourceVersion());
  }

  @ParameterizedTest
  @MethodSource("records")
  void kuiksGateIsWhereTheRecordSaysAndOnlyThere(Watched record) {
    List<String> gates =
        WatchedPods.pod(record, "1").getSpec().getSchedulingGates().stream()
            .map(PodSchedulingGate::getName)
            .toList();

    assertEquals(record.gate() < 0 ? -1 : record.gate(), gates.indexOf("kuik.enix.io/pull-secret"));
    assertEquals(record.gate() < 0 ? 0 : record.gate() + 1, gates.size());
  }

  @ParameterizedTest
  @MethodSource("records")
  void onlyAPodWaitingOnKuiksGateIsKnownToTheBound(Watched record) {
    GateBound.GatedPod gated = record.gated();

    if (record.gate() < 0 || record.deleting() || record.created() == null) {
      assertNull(gated, record.toString());
    } else {
      assertEquals(
          new GateBound.GatedPod(
              record.namespace(), record.name(), record.uid(), record.created(), record.gate()),
          gated);
    }
  }
}
