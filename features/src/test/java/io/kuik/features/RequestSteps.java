package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.trace.TraceRecord;
import java.util.List;

/** What the syncer asked of the API server, read from the simulator's trace. */
public class RequestSteps {

  private final ScenarioState state;

  public RequestSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  @Given("the API server takes {int} ms to answer each apply of the syncer")
  public void applyRoundTrip(int millis) {
    world().install().syncer().applyRoundTrip(java.time.Duration.ofMillis(millis));
  }

  @Given("the number of applies the syncer sent is noted")
  public void theNumberOfAppliesIsNoted() {
    state.notedApplies = applies();
    theSyncersWorkIsNoted();
  }

  @Given("the syncer's work so far is noted")
  public void theSyncersWorkIsNoted() {
    String instance = world().install().installNamespace();
    state.syncerMarks.put(instance, SyncerWork.mark(world().install().syncer(), instance));
  }

  /**
   * For the scenarios whose point is a write the syncer does not make: shows it did take the pair
   * up (see {@link SyncerWork}).
   */
  @Then("the syncer must have reconciled {word} in {word} since then")
  public void reconciledSince(String resource, String namespace) {
    String instance = world().install().installNamespace();
    SyncerWork.assertReconciledSince(
        world().install().syncer(),
        state.syncerMarks.get(instance),
        instance,
        "(" + resource + ", " + namespace + ")",
        world().now());
  }

  @Then("the syncer must have sent no new apply")
  public void noNewApply() {
    assertEquals(state.notedApplies, applies(), "applies sent since noted");
  }

  @Then("the syncer must have sent fewer than {int} applies since then")
  public void fewerAppliesSince(int most) {
    long sent = applies() - state.notedApplies;
    assertTrue(sent < most, sent + " applies since noted, expected fewer than " + most);
  }

  @Then("the syncer must have sent at least {int} applies since then")
  public void atLeastAppliesSince(int least) {
    long sent = applies() - state.notedApplies;
    assertTrue(sent >= least, sent + " applies since noted, expected at least " + least);
  }

  @Then("the syncer must have applied {word} in {word} again")
  public void appliedAgain(String name, String namespace) {
    List<TraceRecord.Request> applies = world().history().syncerApplies(namespace, name);
    assertTrue(applies.size() >= 2, "applies of " + namespace + "/" + name + ": " + applies.size());
  }

  @Then("the syncer must have sent at most {int} applies for {word} in {word}")
  public void atMostApplies(int most, String name, String namespace) {
    int sent = world().history().syncerApplies(namespace, name).size();
    assertTrue(sent >= 2, "the syncer retried: " + sent + " applies");
    assertTrue(
        sent <= most,
        sent + " applies of " + namespace + "/" + name + ", expected at most " + most);
  }

  @Then("the syncer must have sent exactly {int} apply/applies of {word} in {word} so far")
  public void exactlyApplies(int count, String name, String namespace) {
    assertEquals(
        count,
        world().history().syncerApplies(namespace, name).size(),
        "applies of " + namespace + "/" + name);
  }

  @Then("the syncer must have sent no apply to {word} since the namespace was deleted")
  public void noApplySinceDeleted(String namespace) {
    long sent =
        world().history().syncerSecretApplies().stream()
            .filter(r -> r.target().isSecretIn(namespace))
            .filter(r -> !r.at().isBefore(state.namespaceDeletedAt))
            .count();
    assertEquals(0, sent, "applies to " + namespace + " after its deletion");
  }

  @Then("the syncer must not have read any Secret outside {word}")
  public void noSecretReadOutside(String namespace) {
    assertEquals(List.of(), world().history().syncerSecretReadsOutside(namespace));
    assertTrue(
        world().history().syncerRequests().stream().anyMatch(r -> r.target().isSecretIn(namespace)),
        "the syncer does read the Secrets of " + namespace);
  }

  @Then("every pod list of the syncer must select {word}")
  public void everyPodListSelects(String selector) {
    List<String> selectors = world().history().syncerPodListSelectors();
    assertFalse(selectors.isEmpty(), "the syncer listed pods");
    selectors.forEach(listed -> assertEquals(selector, listed, "the selector of a pod list"));
  }

  @Then("the syncer must have been handed the pod {word} in {word}")
  public void handedThePod(String pod, String namespace) {
    assertFalse(
        world().history().syncerPodDeliveries(namespace, pod).isEmpty(), "watch events of " + pod);
  }

  @Then("the syncer must never have been handed the pod {word} in {word}")
  public void neverHandedThePod(String pod, String namespace) {
    assertEquals(List.of(), world().history().syncerPodDeliveries(namespace, pod));
  }

  private long applies() {
    return world().history().syncerSecretApplies().size();
  }
}
