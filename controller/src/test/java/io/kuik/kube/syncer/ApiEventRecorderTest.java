package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.kuik.LogLines;
import io.kuik.kube.MockCluster;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.syncer.Effect.RecordEvent;
import io.kuik.syncer.WriteGate;
import java.time.Instant;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ApiEventRecorderTest {

  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05.123456789Z");

  private final MockCluster cluster = new MockCluster();
  private final ApiEventRecorder recorder =
      new ApiEventRecorder(cluster.client(), () -> NOW, "syncer-0_abc");
  private final WriteGate gate = GatedWire.over(cluster.client(), null, null, recorder);

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void recordsAnEventOnTheClusterScopedResourceInDefault() {
    GatedWire.open(gate);

    recorder.record(
        RecordEvent.onResource(
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
  void recordsAnEventOnAPodInItsOwnNamespaceWithItsUid() {
    GatedWire.open(gate);

    recorder.recordOnPod(
        "tenant",
        "forged",
        "uid-pod",
        RecordEvent.Type.Warning,
        "RewriteNotRecognized",
        "container app claims a rewrite by ImageAlternative/acme, but ...");

    Event event = cluster.client().v1().events().inNamespace("tenant").list().getItems().get(0);
    assertEquals("Pod", event.getInvolvedObject().getKind());
    assertEquals("v1", event.getInvolvedObject().getApiVersion());
    assertEquals("tenant", event.getInvolvedObject().getNamespace());
    assertEquals("forged", event.getInvolvedObject().getName());
    assertEquals("uid-pod", event.getInvolvedObject().getUid(), "what kubectl describe matches");
    assertEquals("RewriteNotRecognized", event.getReason());
    assertTrue(event.getMetadata().getName().startsWith("forged."));
  }

  @Test
  void recordsNothingWhileTheGateIsClosed() {
    gate.record(
        RecordEvent.onResource(
            new ResourceId(RoutingKind.IMAGE_MIRROR, "prod"),
            "uid-1",
            RecordEvent.Type.Warning,
            "PullSecretInjectionFailed",
            "message"));

    assertEquals(0, cluster.client().v1().events().inNamespace("default").list().getItems().size());
  }

  /** The Event is dropped with a warning that says which, and the caller goes on. */
  @Test
  void neverThrowsWhenTheApiServerIsGone() {
    GatedWire.open(gate);
    cluster.close();
    List<LogRecord> logged;
    // WARNING, as the tests' logging.properties leaves it
    try (LogLines log = LogLines.of(ApiEventRecorder.class, Level.WARNING)) {
      assertDoesNotThrow(
          () ->
              recorder.record(
                  RecordEvent.onResource(
                      new ResourceId(RoutingKind.IMAGE_MIRROR, "prod"),
                      "uid-1",
                      RecordEvent.Type.Normal,
                      "Anything",
                      "message")));
      logged = log.records();
    }

    assertEquals(1, logged.size(), "one warning, no more: " + logged);
    assertEquals(Level.WARNING, logged.get(0).getLevel());
    String line =
        java.text.MessageFormat.format(logged.get(0).getMessage(), logged.get(0).getParameters());
    assertTrue(line.startsWith("Events failing: the Anything event on ImageMirror/prod: "), line);
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

  private Event onAlternative(String name, String message, Instant now) {
    return recorder.event(
        new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, name),
        null,
        RecordEvent.Type.Warning,
        "R",
        message,
        now);
  }

  @Test
  void theNameIsTheObjectsThenTheTimeInNanosecondsInHex() {
    Instant now = Instant.ofEpochSecond(1, 5); // 1,000,000,005 ns

    assertEquals("mirror.3b9aca05", onAlternative("mirror", "m", now).getMetadata().getName());
  }

  @Test
  void aNameIsCutOnlyPastTheRoomLeftBesideTheTime() {
    String fits = "a".repeat(253 - 17);
    String over = fits + "b";

    assertEquals(
        fits + ".3b9aca05",
        onAlternative(fits, "m", Instant.ofEpochSecond(1, 5)).getMetadata().getName());
    assertEquals(
        fits + ".3b9aca05",
        onAlternative(over, "m", Instant.ofEpochSecond(1, 5)).getMetadata().getName());
  }

  @Test
  void aMessageIsCutOnlyPastOneKibibyte() {
    String fits = "m".repeat(1024);

    assertEquals(fits, onAlternative("mirror", fits, NOW).getMessage());
    assertEquals(fits, onAlternative("mirror", fits + "!", NOW).getMessage());
  }
}
