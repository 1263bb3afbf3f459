package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cucumber.java.en.Given;
import io.kuik.sim.dsl.KuikWorld;

/** How the syncer spreads its periodic resync, as its command runs it. */
public class ResyncSteps {

  private final ScenarioState state;

  public ResyncSteps(ScenarioState state) {
    this.state = state;
  }

  @Given("the syncer is restarted spreading each resync over its {int}-minute period")
  public void restartedWithASpreadResync(int minutes) {
    assertEquals(
        KuikWorld.RESYNC_PERIOD.toMinutes(), minutes, "the simulated syncer resyncs every");
    state.world().restartSyncerWithResyncSpreadOverThePeriod();
  }
}
