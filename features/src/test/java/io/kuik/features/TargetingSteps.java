package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.sim.dsl.KuikWorld;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Several syncer instances, and which of them serves a namespace. */
public class TargetingSteps {

  private final ScenarioState state;

  public TargetingSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  @Given("the instance in {word} serves unlabelled namespaces: {word}")
  public void theInstanceServesByDefault(String namespace, String byDefault) {
    if (!world().install().installNamespace().equals(namespace)) {
      throw new IllegalArgumentException(namespace + " is not the first instance");
    }
    world().install().restartSyncerServingByDefault(Boolean.parseBoolean(byDefault));
  }

  @Given(
      "another kuik instance is installed in the namespace {word}, serving unlabelled namespaces: {word}")
  public void anotherInstance(String namespace, String byDefault) {
    world().install().installAnotherInstance(namespace, Boolean.parseBoolean(byDefault));
    state.otherInstances.add(namespace);
    world().pass(java.time.Duration.ofSeconds(1));
  }

  @When("^the namespace ([a-z0-9-]+) is created with the labels (\\S+)$")
  public void aNamespaceWithLabels(String name, String labels) {
    Map<String, String> map = new LinkedHashMap<>();
    if (!labels.equals("(none)")) {
      for (String pair : labels.split(",")) {
        String[] kv = pair.split("=", 2);
        map.put(kv[0], kv[1]);
      }
    }
    List<String> instances = new ArrayList<>(state.otherInstances);
    instances.add(world().install().installNamespace());
    for (String instance : instances) {
      state.syncerMarks.put(
          instance, SyncerWork.mark(world().install().syncer(instance), instance));
    }
    world().objects().createNamespace(name, map);
  }

  @Then("the instance in {word} must answer {word} to writing {word} in {word}")
  public void theInstanceWrites(String instance, String expected, String secret, String namespace) {
    if (expected.equals("no")) {
      // "no" must come from an instance that looked at the pair, not from one that never ran.
      SyncerWork.assertReconciledSince(
          world().install().syncer(instance),
          state.syncerMarks.get(instance),
          instance,
          secret + " in " + namespace,
          world().now());
    }
    boolean wrote = !world().history().appliesOf(instance, namespace, secret).isEmpty();
    assertEquals(
        expected.equals("yes"),
        wrote,
        "the instance in "
            + instance
            + (wrote ? " wrote " : " did not write ")
            + namespace
            + "/"
            + secret);
  }
}
