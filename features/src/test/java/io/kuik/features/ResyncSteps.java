package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.trace.TraceRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** How the syncer spreads its periodic resync, as its command runs it. */
public class ResyncSteps {

  private final ScenarioState state;

  public ResyncSteps(ScenarioState state) {
    this.state = state;
  }

  @Given("the syncer is restarted spreading each resync over its {int}-minute period")
  public void restartedWithASpreadResync(int minutes) {
    requireTheSimulatedPeriod(minutes);
    state.world().install().restartSyncerWithResyncSpreadOverThePeriod();
  }

  @Given(
      "the syncer is restarted spreading each resync over its {int}-minute period, with --api-qps {int}")
  public void restartedWithASpreadResyncAndWriteLimit(int minutes, int qps) {
    requireTheSimulatedPeriod(minutes);
    state.restartedAt = state.world().now();
    state.world().install().restartSyncerWithResyncSpreadOverThePeriod(qps);
  }

  @Then(
      "in each of {word}-1 to {word}-{int} the syncer must have applied {word} again at most {int} minutes and {int} seconds after each of its applies since the restart")
  public void reappliedWithinThePeriod(
      String prefix, String same, int count, String secret, int minutes, int seconds) {
    Duration bound = Duration.ofMinutes(minutes).plusSeconds(seconds);
    Instant end = state.world().now();
    Duration longest = Duration.ZERO;
    String where = "";
    for (String namespace : NumberedNamespaces.of(prefix, same, count)) {
      List<Instant> applies =
          state.world().history().syncerApplies(namespace, secret).stream()
              .map(TraceRecord.Request::at)
              .filter(at -> !at.isBefore(state.restartedAt))
              .toList();
      assertFalse(applies.isEmpty(), namespace + ": no apply of " + secret + " since the restart");
      List<Instant> points = new ArrayList<>(applies);
      points.add(end); // the wait since the last apply counts too
      for (int j = 1; j < points.size(); j++) {
        Duration gap = Duration.between(points.get(j - 1), points.get(j));
        if (gap.compareTo(longest) > 0) {
          longest = gap;
          where = namespace + " after " + points.get(j - 1);
        }
      }
    }
    assertTrue(
        longest.compareTo(bound) <= 0,
        "the longest wait for a re-apply was " + longest + " (" + where + "), more than " + bound);
  }

  private static void requireTheSimulatedPeriod(int minutes) {
    assertEquals(
        KuikWorld.RESYNC_PERIOD.toMinutes(), minutes, "the simulated syncer resyncs every");
  }
}
