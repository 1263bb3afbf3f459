package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kuik.kube.MockCluster;
import io.kuik.syncer.Answer;
import io.kuik.syncer.WriteGate;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ApplyingSecretWriterTest {

  private final MockCluster cluster = new MockCluster();
  private final SyncerMetrics metrics = new SyncerMetrics();
  private final ApplyingSecretWriter writer = new ApplyingSecretWriter(cluster.client(), metrics);
  private final WriteGate gate = GatedWire.over(cluster.client(), writer, null, null);

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void appliesTheSecretWhileTheGateIsOpen() {
    GatedWire.open(gate);

    Answer outcome = gate.apply(GatedWire.apply(secret()));

    assertEquals(Answer.APPLIED, outcome);
    assertEquals(
        "e30=",
        cluster
            .client()
            .secrets()
            .inNamespace("team-a")
            .withName("pull")
            .get()
            .getData()
            .get(".dockerconfigjson"));
  }

  @Test
  void sendsNothingOnceTheGateIsClosed() {
    GatedWire.open(gate);
    gate.leading(false);

    Answer outcome = gate.apply(GatedWire.apply(secret()));

    assertEquals(
        new Answer.Refused(
            0, "NotLeader", "this instance does not hold the lease; nothing was sent"),
        outcome);
    assertEquals(null, cluster.client().secrets().inNamespace("team-a").withName("pull").get());
  }

  @Test
  void aWriteStoppedByShutdownSaysShuttingDownNotNotLeader() {
    GatedWire.open(gate);
    gate.stopping();

    Answer outcome = gate.apply(GatedWire.apply(secret()));

    assertEquals(
        new Answer.Refused(0, "ShuttingDown", "the syncer is stopping; nothing was sent"), outcome);
  }

  @Test
  void anApiRefusalKeepsTheServersCodeReasonAndMessage() {
    Status status =
        new StatusBuilder()
            .withCode(403)
            .withReason("Forbidden")
            .withMessage("namespace team-a is being terminated")
            .build();

    Answer.Refused refused = ApplyingSecretWriter.refusal(new KubernetesClientException(status));

    assertEquals(
        new Answer.Refused(403, "Forbidden", "namespace team-a is being terminated"), refused);
    assertEquals(true, refused.namespaceTerminating());
  }

  @Test
  void aFailureWithoutAnAnswerIsATransportRefusal() {
    Answer.Refused refused =
        ApplyingSecretWriter.refusal(new KubernetesClientException("connection refused"));

    assertEquals(0, refused.code());
    assertEquals("Transport", refused.reason());
  }

  @Test
  void anUnreachableApiServerIsATransportRefusalNotAnException() {
    GatedWire.open(gate);
    cluster.close();

    Answer outcome = gate.apply(GatedWire.apply(secret()));

    Answer.Refused refused = (Answer.Refused) outcome;
    assertEquals(0, refused.code());
  }

  private static Secret secret() {
    return new SecretBuilder()
        .withNewMetadata()
        .withName("pull")
        .withNamespace("team-a")
        .endMetadata()
        .withType("kubernetes.io/dockerconfigjson")
        .withData(Map.of(".dockerconfigjson", "e30="))
        .build();
  }

  /** What a failure becomes, with and without the API server's Status. */
  @Test
  void aRefusalKeepsWhatTheServerSaidAndNamesWhatItDidNot() {
    Status forbidden =
        new StatusBuilder()
            .withCode(403)
            .withReason("Forbidden")
            .withMessage("secrets is forbidden")
            .build();
    Status empty = new StatusBuilder().withCode(500).withReason("").withMessage("").build();

    assertEquals(
        new Answer.Refused(403, "Forbidden", "secrets is forbidden"),
        ApplyingSecretWriter.refusal(new KubernetesClientException(forbidden)));
    assertEquals(
        new Answer.Refused(500, "Unknown", "Failure executing: the server failed"),
        ApplyingSecretWriter.refusal(
            new KubernetesClientException("Failure executing: the server failed", 500, empty)));
    assertEquals(
        new Answer.Refused(409, "Unknown", "conflict without a status"),
        ApplyingSecretWriter.refusal(
            new KubernetesClientException("conflict without a status", 409, null)));
    assertEquals(
        new Answer.Refused(0, "Transport", "ConnectException: Connection refused"),
        ApplyingSecretWriter.refusal(
            new KubernetesClientException(
                "An error has occurred.", new java.net.ConnectException("Connection refused"))));
  }
}
