package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ObservedNamespace;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SeenAtStartTest {

  private static final ObservedNamespace TEAM_A =
      new ObservedNamespace("team-a", Map.of("tier", "prod"), false);

  private final SeenAtStart seen = new SeenAtStart();

  @Test
  void theStartsOwnAddArrivingLateIsDroppedOnce() {
    seen.saw("team-a", TEAM_A);
    seen.saw("team-b", TEAM_A);
    assertEquals(2, seen.size(), "one entry per object the start listed");

    assertTrue(seen.repeatsTheStart("team-a", true, TEAM_A));
    assertFalse(seen.repeatsTheStart("team-a", true, TEAM_A), "a later add is a new object");
    assertEquals(1, seen.size(), "team-a's entry taken, team-b's still waits");
  }

  @Test
  void anAddOfSomethingElseGoesThrough() {
    seen.saw("team-a", TEAM_A);

    assertFalse(
        seen.repeatsTheStart(
            "team-a", true, new ObservedNamespace("team-a", Map.of("tier", "dev"), false)));
    assertFalse(seen.repeatsTheStart("team-b", true, TEAM_A), "never seen");
  }

  @Test
  void anyFirstNotificationTakesTheEntrySoARecreatedTwinGoesThrough() {
    seen.saw("team-a", TEAM_A);

    assertFalse(seen.repeatsTheStart("team-a", false, null), "deleted");
    assertFalse(seen.repeatsTheStart("team-a", true, TEAM_A), "created again, the same");
    assertEquals(0, seen.size());
  }

  @Test
  void nothingIsDroppedOnceCleared() {
    seen.saw("team-a", TEAM_A);
    seen.clear();
    assertEquals(0, seen.size());

    assertFalse(seen.repeatsTheStart("team-a", true, TEAM_A));
  }
}
