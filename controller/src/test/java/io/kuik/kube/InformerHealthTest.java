package io.kuik.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kuik.LogLines;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What {@link InformerHealth#reportStop} makes of an informer's failures, on an informer that does
 * only what fabric8 tells the handler: which failures are retried, which are told, and the one line
 * for an informer that stopped for good after it synced (docs/operations.md#logs).
 */
class InformerHealthTest {

  private final LogLines log = LogLines.of(InformerHealth.class);
  private final CompletableFuture<Void> stopped = new CompletableFuture<>();
  private ExceptionHandler handler;
  private boolean synced = true;

  @AfterEach
  void forget() {
    // A stopped informer leaves the health check at its next round.
    stopped.complete(null);
    log.close();
  }

  /** An informer of {@code what}, reported: its handler kept, its stop in the test's hands. */
  private void reported(String what) {
    SharedIndexInformer<?> informer =
        (SharedIndexInformer<?>)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {SharedIndexInformer.class},
                (self, method, args) ->
                    switch (method.getName()) {
                      case "exceptionHandler" -> {
                        handler = (ExceptionHandler) args[0];
                        yield self;
                      }
                      case "stopped" -> stopped;
                      case "hasSynced" -> synced;
                      case "isWatching" -> true;
                      case "hashCode" -> System.identityHashCode(self);
                      case "equals" -> self == args[0];
                      case "toString" -> "informer of " + what;
                      default -> throw new UnsupportedOperationException(method.getName());
                    });
    InformerHealth.reportStop(informer, what);
  }

  private static KubernetesClientException answered(int code, String reason) {
    return new KubernetesClientException(
        new StatusBuilder().withCode(code).withReason(reason).withMessage("no").build());
  }

  @Test
  void aFailureAfterTheStartIsRetriedAndTold() {
    reported("widgets of the health test");

    assertTrue(handler.retryAfterException(true, answered(503, "ServiceUnavailable")));
    List<String> said = log.containing("widgets of the health test");
    assertEquals(1, said.size(), log.all().toString());
    assertTrue(said.get(0).contains("lists and watches failing"), said.toString());
    assertTrue(said.get(0).contains("503 ServiceUnavailable"), said.toString());
  }

  /**
   * fabric8 wraps an answer in a failure of its own, with code 0 or -1 (none came with it): the
   * answer is the cause's.
   */
  @Test
  void anAnswerIsFoundUnderAFailureWithoutACode() {
    for (int none : new int[] {0, -1}) {
      KubernetesClientException wrapper =
          new KubernetesClientException(
              "listSyncAndWatch failed", answered(503, "ServiceUnavailable")) {
            @Override
            public int getCode() {
              return none;
            }
          };
      assertEquals("503 ServiceUnavailable", InformerHealth.answer(wrapper), "code " + none);
    }
  }

  @Test
  void aFailureOfTheStartIsNotRetriedHereTheStartSaysSo() {
    reported("gadgets of the health test");

    assertFalse(handler.retryAfterException(false, answered(403, "Forbidden")));
    assertEquals(List.of(), log.containing("gadgets of the health test"));
  }

  @Test
  void aWatchThatGaveUpStopsTheInformer() {
    reported("gizmos of the health test");

    assertFalse(
        handler.retryAfterException(
            true, new WatcherException("cannot read the event", new IllegalStateException())));
  }

  @Test
  void anInformerThatStopsAfterItSyncedIsOneSevereLineWithItsName() {
    reported("sprockets of the health test");

    stopped.completeExceptionally(new IllegalStateException("an event it cannot read"));
    List<String> said = log.containing("sprockets of the health test");
    assertEquals(
        List.of(
            "SEVERE the informer of sprockets of the health test stopped (IllegalStateException:"
                + " an event it cannot read); /healthz and /readyz fail from now on, so that"
                + " Kubernetes restarts the process"),
        said);
  }

  @Test
  void anInformerStoppedOnPurposeOrBeforeItSyncedSaysNothingHere() {
    reported("cogs of the health test");
    stopped.complete(null); // the process closes it
    assertEquals(List.of(), log.containing("cogs of the health test"));
  }

  @Test
  void anInformerThatNeverSyncedLeavesItsStopToTheStart() {
    synced = false;
    reported("levers of the health test");
    stopped.completeExceptionally(new IllegalStateException("listed nothing"));
    assertEquals(List.of(), log.containing("levers of the health test"));
  }
}
