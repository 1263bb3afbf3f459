package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.After;
import io.cucumber.java.Scenario;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.TraceRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Installation, namespaces, time, and the syncer process. */
public class ClusterSteps {

  private final ScenarioState state;

  public ClusterSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  @Given("kuik is installed in the namespace {word}")
  public void kuikIsInstalled(String namespace) {
    world().install().install(namespace);
    world().pass(Duration.ofSeconds(1));
  }

  @Given("^the namespace ([a-z0-9-]+)(?: is created)?$")
  public void theNamespace(String name) {
    world().objects().createNamespace(name, Map.of());
  }

  @Given("^the namespace ([a-z0-9-]+) labelled ([^=\\s]+)=(\\S+)(?: is created)?$")
  public void theLabelledNamespace(String name, String key, String value) {
    world().objects().createNamespace(name, Map.of(key, value));
  }

  @Given("{int} namespaces named {word}-1 to {word}-{int}")
  public void manyNamespaces(int count, String prefix, String samePrefix, int last) {
    if (last != count) {
      throw new IllegalArgumentException("say N namespaces named p-1 to p-N");
    }
    NumberedNamespaces.of(prefix, samePrefix, last)
        .forEach(namespace -> world().objects().createNamespace(namespace, Map.of()));
  }

  @When("^the namespace ([a-z0-9-]+) is labelled ([^=\\s]+)=(\\S+)$")
  public void theNamespaceIsLabelled(String name, String key, String value) {
    world().objects().labelNamespace(name, key, value);
  }

  @Given("the namespace {word} has a finalizer that holds it in Terminating")
  public void heldInTerminating(String name) {
    world().objects().holdNamespaceInTerminating(name);
  }

  @When("the namespace {word} is deleted")
  public void theNamespaceIsDeleted(String name) {
    world().objects().deleteNamespace(name);
    state.namespaceDeletedAt = world().now();
  }

  @When("^(.+) pass(?:es)?$")
  public void timePasses(String duration) {
    // "a resync period": the syncer's own resync owes every pair a forced apply at its slot in
    // the period, so a period later every pair has had it.
    world()
        .pass(
            duration.equals("a resync period")
                ? KuikWorld.RESYNC_PERIOD
                : Durations.parse(duration));
  }

  @Given("the syncer is restarted with a grace period of {int} minutes")
  public void restartedWithGrace(int minutes) {
    world().install().restartSyncerWithGrace(Duration.ofMinutes(minutes));
  }

  @When("the syncer stops")
  public void theSyncerStops() {
    world().install().syncer().stop();
  }

  @When("the syncer crashes")
  public void theSyncerCrashes() {
    world().install().syncer().crash();
  }

  @When("the syncer starts")
  public void theSyncerStarts() {
    world().install().syncer().start();
  }

  @When("the API server answers every request with 503 for {int} minutes")
  public void anOutage(int minutes) {
    state.outageStart = world().now();
    state.outageEnd = state.outageStart.plus(Duration.ofMinutes(minutes));
    world().faults().apiServerUnavailable(Duration.ofMinutes(minutes));
  }

  @Then("the syncer must have sent at most {int} applies of each Secret during the outage")
  public void atMostAppliesDuringTheOutage(int most) {
    Map<Target, Long> perSecret =
        world().history().syncerSecretApplies().stream()
            .filter(r -> !r.at().isBefore(state.outageStart) && r.at().isBefore(state.outageEnd))
            .collect(Collectors.groupingBy(TraceRecord.Request::target, Collectors.counting()));
    assertTrue(!perSecret.isEmpty(), "the syncer tried during the outage");
    perSecret.forEach(
        (secret, applies) ->
            assertTrue(
                applies <= most, applies + " applies of " + secret + ", expected at most " + most));
  }

  /** The name of the attachment that carries each scenario's timeline in the HTML report. */
  static final String TIMELINE = "timeline";

  /**
   * Every scenario carries its storyline in the HTML report (and a failing one its full timeline,
   * every watch delivery included, in its log).
   *
   * <p>Every scenario also checks that no syncer ever sent a DELETE (its Secrets leave with their
   * resource through the garbage collector, never by its hand; a step that deletes under the
   * syncer's identity, to show the policy refusing it, is not the syncer), and that the chart's
   * policy refused none of the syncer's writes: the syncer's own writes must all pass in a healthy
   * cluster.
   */
  @After
  public void noSyncerDeleteAndNoSyncerWriteRefusedByThePolicy(Scenario scenario) {
    if (!state.started()) {
      return;
    }
    scenario.attach(world().views().storyline(), "text/plain", TIMELINE);
    if (scenario.isFailed()) {
      scenario.log(world().views().timeline());
    }
    Timelines.publish(scenario, world());
    assertEquals(
        state.deletesSentAsTheSyncer,
        world().history().syncerDeletes().size(),
        "the syncer sent a DELETE (a step sent "
            + state.deletesSentAsTheSyncer
            + " under its identity): "
            + world().history().syncerDeletes());
    if (scenario.getSourceTagNames().contains("@the-policy-refuses-the-syncer")) {
      return;
    }
    assertEquals(
        List.of(),
        world().history().syncerWritesRefusedByThePolicy(),
        "the admission policy refused a write of the syncer");
  }
}
