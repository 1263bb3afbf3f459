package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.LogLines;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.Metrics;
import io.kuik.kube.MockCluster;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.syncer.Answer;
import io.kuik.syncer.RoutingStatus;
import io.kuik.syncer.WriteGate;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The status writer behind the write gate, on a mock API server serving the chart's CRDs: it
 * applies status alone while this process leads, and sends nothing from a standby or a deposed
 * leader.
 */
class ApplyingStatusWriterTest {

  private static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");

  private final MockCluster cluster = new MockCluster();
  private final ClusterFixtures fixtures = new ClusterFixtures(cluster.client());
  private final SyncerMetrics metrics = new SyncerMetrics();
  private final ApplyingStatusWriter writer =
      new ApplyingStatusWriter(cluster.client(), metrics, java.time.Instant::now);
  private final WriteGate gate = GatedWire.over(cluster.client(), null, writer, null);

  /** As the driver sends a status: through the gate, the answer counted. */
  private Answer send(RoutingStatus status) {
    return writer.counted(status, gate.write(GatedWire.write(status)));
  }

  @AfterEach
  void close() {
    cluster.close();
  }

  private static RoutingStatus status(ResourceId id, int namespaces) {
    return new RoutingStatus(
        id,
        1,
        true,
        "Valid",
        "every field is valid",
        namespaces,
        Instant.parse("2026-01-01T00:00:00Z"));
  }

  private Object storedNamespaces() {
    ImageAlternative stored =
        cluster.client().resources(ImageAlternative.class).withName("acme").get();
    return stored.getStatus() == null ? null : stored.getStatus().secretNamespaces();
  }

  private double written(String result) {
    return Metrics.value(
        Metrics.text(metrics.registry()),
        "kuik_syncer_status_writes_total{result=\"" + result + "\"}");
  }

  @Test
  void appliesTheStatusAloneWhileThisProcessLeads() {
    fixtures.imageAlternative("Always", "{}");
    GatedWire.open(gate);

    assertEquals(Answer.APPLIED, send(status(ACME, 3)));

    assertEquals(3, storedNamespaces());
    assertEquals(
        "Always",
        cluster
            .client()
            .resources(ImageAlternative.class)
            .withName("acme")
            .get()
            .getSpec()
            .rewritePolicy());
    assertEquals(1, written("Applied"));
  }

  @Test
  void aStandbyOrADeposedLeaderSendsNoStatus() {
    fixtures.imageAlternative("Always", "{}");

    assertTrue(send(status(ACME, 3)) instanceof Answer.Refused, "never opened: a standby");
    GatedWire.open(gate);
    gate.leading(false);
    assertTrue(send(status(ACME, 3)) instanceof Answer.Refused, "deposed");

    assertNull(storedNamespaces());
    assertEquals(2, written("NotLeader"));
  }

  @Test
  void theStatusOfAResourceThatIsGoneIsNotFoundAndCreatesNothing() {
    GatedWire.open(gate);

    assertTrue(
        send(status(new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "gone"), 1))
            instanceof Answer.Refused);

    assertNull(cluster.client().resources(ImageAlternative.class).withName("gone").get());
    assertEquals(1, written("NotFound"));
  }

  @Test
  void anApiServersRefusalIsToldAndItsEndTooTheGatesIsNot() {
    try (LogLines log = LogLines.of(ApplyingStatusWriter.class)) {
      assertTrue(send(status(ACME, 3)) instanceof Answer.Refused, "a standby: the gate refuses");
      assertEquals(List.of(), log.all(), "the gate's refusal is no failure of the API server");

      GatedWire.open(gate);
      assertTrue(send(status(ACME, 3)) instanceof Answer.Refused, "acme does not exist yet");
      List<String> failing = log.containing("status writes failing");
      assertEquals(1, failing.size(), log.all().toString());
      assertTrue(failing.get(0).contains("404 NotFound"), failing.toString());

      fixtures.imageAlternative("Always", "{}");
      assertEquals(Answer.APPLIED, send(status(ACME, 3)));
      assertEquals(
          1, log.containing("status writes no longer failing").size(), log.all().toString());
    }
  }
}
