package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.kuik.kube.MockCluster;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.syncer.Effect.RecordEvent;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ApiEventRecorderTest {

  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05.123456789Z");

  private final MockCluster cluster = new MockCluster();
  private final WriteFence fence = new WriteFence();
  private final ApiEventRecorder recorder =
      new ApiEventRecorder(cluster.client(), fence, () -> NOW, "syncer-0_abc");

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void recordsAnEventOnTheClusterScopedResourceInDefault() {
    fence.open();

    recorder.record(
        new RecordEvent(
            new ResourceId(RoutingKind.IMAGE_MIRROR, "prod"),
            "uid-1",
            RecordEvent.Type.Warning,
            "PullSecretInjectionFailed",
            "entry 0: Secret example-pull is missing"));

    Event event = cluster.client().v1().events().inNamespace("default").list().getItems().get(0);
    assertEquals("ImageMirror", event.getInvolvedObject().getKind());
    assertEquals("kuik.enix.io/v1alpha1", event.getInvolvedObject().getApiVersion());
    assertEquals("prod", event.getInvolvedObject().getName());
    assertEquals("uid-1", event.getInvolvedObject().getUid());
    assertEquals("Warning", event.getType());
    assertEquals("PullSecretInjectionFailed", event.getReason());
    assertEquals("kuik-secret-syncer", event.getSource().getComponent());
    assertEquals("syncer-0_abc", event.getReportingInstance());
    assertEquals(NOW.toString(), event.getFirstTimestamp());
  }

  @Test
  void recordsNothingWhileTheFenceIsClosed() {
    recorder.record(
        new RecordEvent(
            new ResourceId(RoutingKind.IMAGE_MIRROR, "prod"),
            "uid-1",
            RecordEvent.Type.Warning,
            "PullSecretInjectionFailed",
            "message"));

    assertEquals(0, cluster.client().v1().events().inNamespace("default").list().getItems().size());
  }

  @Test
  void neverThrowsWhenTheApiServerIsGone() {
    fence.open();
    cluster.close();

    recorder.record(
        new RecordEvent(
            new ResourceId(RoutingKind.IMAGE_MIRROR, "prod"),
            "uid-1",
            RecordEvent.Type.Normal,
            "Anything",
            "message"));
  }

  @Test
  void namesStayValidForTheLongestResourceNames() {
    String longest = "a".repeat(235) + "-b" + "c".repeat(16);
    Event event =
        recorder.event(
            new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, longest),
            null,
            RecordEvent.Type.Warning,
            "R",
            "m",
            NOW);

    String name = event.getMetadata().getName();
    assertTrue(name.length() <= 253, name);
    assertTrue(name.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?") && !name.contains("-."), name);
  }
}
