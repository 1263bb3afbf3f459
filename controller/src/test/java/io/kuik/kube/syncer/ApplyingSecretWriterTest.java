package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kuik.kube.MockCluster;
import io.kuik.syncer.Answer;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ApplyingSecretWriterTest {

  private final MockCluster cluster = new MockCluster();
  private final WriteFence fence = new WriteFence();
  private final SyncerMetrics metrics = new SyncerMetrics();
  private final ApplyingSecretWriter writer =
      new ApplyingSecretWriter(cluster.client(), fence, metrics);

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void appliesTheSecretWhileTheFenceIsOpen() {
    fence.open();

    Answer outcome = writer.apply(secret());

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
  void sendsNothingOnceTheFenceIsClosed() {
    fence.open();
    fence.close();

    Answer outcome = writer.apply(secret());

    assertEquals(
        new Answer.Refused(
            0, "NotLeader", "this instance does not hold the lease; nothing was sent"),
        outcome);
    assertEquals(null, cluster.client().secrets().inNamespace("team-a").withName("pull").get());
  }

  @Test
  void aWriteStoppedByShutdownSaysShuttingDownNotNotLeader() {
    fence.open();
    fence.closeForShutdown();

    Answer outcome = writer.apply(secret());

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
    fence.open();
    cluster.close();

    Answer outcome = writer.apply(secret());

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
}
