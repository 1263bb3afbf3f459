package io.kuik.webhook;

import static io.kuik.webhook.AdmissionFixtures.MIRROR_HAS_EVERYTHING;
import static io.kuik.webhook.AdmissionFixtures.PROD_MIRROR;
import static io.kuik.webhook.AdmissionFixtures.recorded;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ServedNamespaces;
import io.kuik.routing.Router;
import io.kuik.routing.RoutingDecision;
import io.kuik.routing.RoutingIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The handler's decision listener: hears every routed pod creation, and can change no answer. */
class AdmissionDecisionListenerTest {

  private static AdmissionHandler handler(Consumer<RoutingDecision> decided) {
    RoutingIndex index = RoutingIndex.of(List.of(PROD_MIRROR));
    return new AdmissionHandler(
        new Router(MIRROR_HAS_EVERYTHING, name -> Optional.empty()),
        () -> index,
        ServedNamespaces.allBut(ServedNamespaces.KUBE_SYSTEM),
        name -> name.equals("team-a") ? Optional.of(Map.of()) : Optional.empty(),
        decided,
        () -> false);
  }

  @Test
  void hearsTheDecisionOfARoutedPodCreation() {
    List<RoutingDecision> heard = new ArrayList<>();

    handler(heard::add).handle(recorded("pod-create.json"));

    assertEquals(1, heard.size());
    assertEquals(2, heard.get(0).rewrites().size(), "nginx and migrate go to the mirror");
  }

  @ParameterizedTest(name = "if the body is {0}, expect no decision heard")
  @ValueSource(strings = {"pod-update.json", "pod-unknown-namespace.json", "configmap-create.json"})
  void hearsNothingWhenNothingWasRouted(String file) {
    List<RoutingDecision> heard = new ArrayList<>();

    handler(heard::add).handle(recorded(file));

    assertTrue(heard.isEmpty(), heard.toString());
  }

  @Test
  void aFailingListenerChangesNoAnswer() {
    byte[] quiet = handler(decision -> {}).handle(recorded("pod-create.json"));
    byte[] failing =
        handler(
                decision -> {
                  throw new IllegalStateException("listener bug");
                })
            .handle(recorded("pod-create.json"));

    assertArrayEquals(quiet, failing);
  }
}
