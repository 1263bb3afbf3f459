package io.kuik.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/** The phrases the processes log for a failure and an end, read whole. */
class ProcessWordsTest {

  @Test
  void theRootCauseIsTheDeepestCauseWithItsMessageIfItHasOne() {
    assertEquals(
        "ConnectException: Connection refused",
        RootCause.of(
            new KubernetesClientException(
                "An error has occurred.",
                new IOException("wrapped", new ConnectException("Connection refused")))));
    assertEquals("IOException", RootCause.of(new IllegalStateException("x", new IOException())));
    assertEquals("IOException: alone", RootCause.of(new IOException("alone")));
  }

  @Test
  void eachEndSaysWhyAndItsExitCode() {
    assertEquals("stopped, exit code 0", ExitReason.SHUTDOWN.describe());
    assertEquals("the lease was lost, exit code 1", ExitReason.LOST_LEASE.describe());
    assertEquals("the start failed, exit code 1", ExitReason.STARTUP_FAILED.describe());
  }

  @Test
  void aStoppedInformerIsToldByTheApiServersCodeAndReasonOrByItsSilence() {
    KubernetesClientException forbidden =
        new KubernetesClientException(
            new StatusBuilder().withCode(403).withReason("Forbidden").build());
    KubernetesClientException gone =
        new KubernetesClientException("gone", 410, new StatusBuilder().withReason("").build());
    KubernetesClientException noStatus = new KubernetesClientException("nothing", 500, null);

    assertEquals("403 Forbidden", InformerHealth.answer(forbidden));
    assertEquals(
        "403 Forbidden", InformerHealth.answer(new RuntimeException("wrapped", forbidden)));
    assertEquals("410", InformerHealth.answer(gone));
    assertEquals("500", InformerHealth.answer(noStatus));
    assertEquals(
        "no answer from the API server",
        InformerHealth.answer(
            new KubernetesClientException("no answer", new ConnectException("refused"))));
    assertEquals("no answer from the API server", InformerHealth.answer(null));
  }
}
