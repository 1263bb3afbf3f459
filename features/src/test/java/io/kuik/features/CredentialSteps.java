package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.cucumber.java.en.Then;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.trace.TraceRecord;
import java.util.List;

/** Credentials tried ahead of time: what the registries were asked, the Events, the metric. */
public class CredentialSteps {

  private final ScenarioState state;

  public CredentialSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  @Then("^the registry (\\S+) must have been asked to try a credential (\\d+) times?$")
  public void theRegistryWasAsked(String host, int times) {
    assertEquals(
        times,
        world().history().registryLogins(host).size(),
        () -> world().history().registryLogins(host).toString());
  }

  @Then(
      "^the metric kuik_syncer_credential_trials_total\\{result=\"(accepted|refused|unreachable)\"\\} must be (\\d+)$")
  public void theMetricIs(String result, long value) {
    assertEquals(value, world().history().credentialTrials(result));
  }

  @Then(
      "^the (ImageAlternative|ImageMirror) ([a-z0-9.-]+) must have (\\d+) (Warning|Normal) events? (\\w+)$")
  public void mustHaveEvents(String kind, String name, int count, String type, String reason) {
    List<String> events =
        world().views().eventsOn(kind, name, type).stream()
            .filter(e -> e.startsWith(reason + ": "))
            .toList();
    assertEquals(count, events.size(), events::toString);
  }

  /** No line of the trace (every request, answer, registry note) and no Event holds it. */
  @Then("^no trace line and no Event of the ImageAlternative ([a-z0-9.-]+) must hold (\\S+)$")
  public void nothingHolds(String name, String secret) {
    for (TraceRecord record : world().history().records()) {
      String line = world().history().line(record);
      assertFalse(line.contains(secret), line);
    }
    for (String type : List.of("Warning", "Normal")) {
      for (String event : world().views().eventsOn("ImageAlternative", name, type)) {
        assertFalse(event.contains(secret), event);
      }
    }
  }
}
