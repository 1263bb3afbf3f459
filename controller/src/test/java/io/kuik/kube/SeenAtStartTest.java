package io.kuik.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RoutingKind;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SeenAtStartTest {

  private static final ObservedNamespace TEAM_A =
      new ObservedNamespace("team-a", Map.of("tier", "prod"), false);
  private static final RewrittenPod WEB =
      new RewrittenPod(
          "team-a",
          "web",
          "uid-web",
          "Running",
          false,
          Map.of(
              "app",
              new RewrittenPod.RewrittenContainer(
                  new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme"), "quay.io/acme/app:1")));

  private final SeenAtStart seen = new SeenAtStart();

  @Test
  void theStartsOwnListArrivingLateIsDroppedOnce() {
    seen.saw(TEAM_A);
    seen.saw(WEB);

    assertTrue(seen.alreadySeen("team-a", Optional.of(TEAM_A)));
    assertTrue(seen.alreadySeen(WEB));
    assertFalse(seen.alreadySeen("team-a", Optional.of(TEAM_A)), "a later one is a change");
    assertFalse(seen.alreadySeen(WEB), "a later ADDED is a new pod of the same name");
    assertEquals(0, seen.size());
  }

  @Test
  void aNamespaceThatChangedSinceTheStartGoesThrough() {
    seen.saw(TEAM_A);

    assertFalse(
        seen.alreadySeen(
            "team-a", Optional.of(new ObservedNamespace("team-a", Map.of("tier", "dev"), false))));
    assertFalse(seen.alreadySeen("team-b", Optional.empty()), "never seen");
  }

  @Test
  void aPodThatChangedSinceTheStartGoesThrough() {
    seen.saw(WEB);

    assertFalse(
        seen.alreadySeen(
            new RewrittenPod("team-a", "web", "uid-web", "Failed", false, WEB.containers())));
  }

  @Test
  void nothingIsDroppedOnceCleared() {
    seen.saw(TEAM_A);
    seen.saw(WEB);
    seen.clear();

    assertFalse(seen.alreadySeen("team-a", Optional.of(TEAM_A)));
    assertFalse(seen.alreadySeen(WEB));
  }
}
