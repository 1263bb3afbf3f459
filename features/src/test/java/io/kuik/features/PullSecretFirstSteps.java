package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.sim.dsl.KuikWorld;
import java.time.Duration;
import java.util.List;

/** Pull secret first: the scheduling gate, its release, and its bound. */
public class PullSecretFirstSteps {

  private final ScenarioState state;

  public PullSecretFirstSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  @Given(
      "kuik is installed in the namespace {word} with pull secret first, the gate bound to {int} seconds")
  public void installedWithPullSecretFirst(String namespace, int seconds) {
    world().install().installWithPullSecretFirst(namespace, Duration.ofSeconds(seconds));
    world().pass(Duration.ofSeconds(1));
  }

  @Then("the pod {word} in {word} must be gated by {word}")
  public void gated(String pod, String namespace, String gate) {
    List<String> gates = world().views().podGates(namespace, pod);
    assertTrue(gates.contains(gate), pod + "'s scheduling gates: " + gates);
  }

  @Then("the pod {word} in {word} must not be gated")
  public void notGated(String pod, String namespace) {
    assertEquals(List.of(), world().views().podGates(namespace, pod), pod + "'s scheduling gates");
  }

  @Then("the pod {word} in {word} must have the condition {word} {word}")
  public void condition(String pod, String namespace, String type, String value) {
    assertEquals(value, world().views().podCondition(namespace, pod, type), type + " of " + pod);
  }

  @Then("the kubelet must not have pulled for {word} in {word}")
  public void notPulled(String pod, String namespace) {
    assertEquals(List.of(), world().views().pullsOf(namespace, pod), "the kubelet's pulls");
  }

  @Then("{int} pod(s) must have been released by the bound")
  public void releasedByTheBound(int count) {
    assertEquals(count, world().views().podsReleasedByTheBound());
  }

  @Then(
      "^the gate of ([a-z0-9-]+) in ([a-z0-9-]+) must have been removed after its namespace's"
          + " ([a-z0-9.-]+) was first written$")
  public void gateAfterTheSecret(String pod, String namespace, String secret) {
    int[] order = world().history().gateAndSecretOrder(namespace, pod, secret);
    assertTrue(order[1] >= 0, secret + " was never written in " + namespace);
    assertTrue(
        order[0] > order[1],
        "the gate went before the Secret was written: " + order[0] + ", " + order[1]);
  }

  @When("the API server answers every request with 503 for {int} seconds")
  public void aShortOutage(int seconds) {
    world().faults().apiServerUnavailable(Duration.ofSeconds(seconds));
  }

  @When("the API server answers every request about {word} with 503 for {int} seconds")
  public void anOutageAbout(String name, int seconds) {
    world().faults().apiServerUnavailableFor(name, Duration.ofSeconds(seconds));
  }

  @When("^the registry (\\S+) no longer accepts ([^:\\s]+):(\\S+)$")
  public void revoked(String host, String user, String password) {
    world().actions().registryRevokes(host, user, password);
  }
}
