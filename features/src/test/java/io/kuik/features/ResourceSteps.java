package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.sim.dsl.Actions;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.world.object.Meta;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/** ImageAlternatives and ImageMirrors, and the events recorded on them. */
public class ResourceSteps {

  private final ScenarioState state;
  private Actions.Answer answer;

  public ResourceSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  /** An ordinary create: the API server validates it by the chart's CRD, schema and rules. */
  @Given("^the (ImageAlternative|ImageMirror) ([a-z0-9.-]+)(?: is created)?:$")
  public void theResource(String kind, String name, String yaml) {
    world().objects().createResource(kind, name, yaml);
  }

  /**
   * A resource the chart's CRD refuses, stored as a cluster stores it when its CRD has no schema
   * (an older or hand-made CRD): see {@link KuikWorld#createResourceWithoutTheCrdSchema}.
   */
  @Given(
      "^the (ImageAlternative|ImageMirror) ([a-z0-9.-]+) is created through an API server without the CRD's schema:$")
  public void theResourceWithoutTheSchema(String kind, String name, String yaml) {
    world().objects().createResourceWithoutTheCrdSchema(kind, name, yaml);
  }

  @Given(
      "the ImageAlternative {word} listing {int} alternatives under {word} is created through an API"
          + " server without the CRD's schema")
  public void aHugeResourceWithoutTheSchema(String name, int count, String secretRef) {
    StringBuilder yaml = new StringBuilder("spec:\n  rewritePolicy: Always\n  alternatives:\n");
    for (int i = 0; i < count; i++) {
      yaml.append("  - repository: quay.io/acme/app-")
          .append(i)
          .append("\n    auth: {secretRef: {name: ")
          .append(secretRef)
          .append("}}\n");
    }
    world().objects().createResourceWithoutTheCrdSchema("ImageAlternative", name, yaml.toString());
  }

  @When("^a person tries to create the (ImageAlternative|ImageMirror) ([a-z0-9.-]+):$")
  public void aPersonTriesToCreate(String kind, String name, String yaml) {
    answer = world().actions().attempt(() -> world().objects().createResource(kind, name, yaml));
  }

  @Then("the API server must refuse it with {int} saying {string}")
  public void theApiServerRefusesIt(int code, String text) {
    assertEquals(code, answer.code(), answer.message());
    assertTrue(answer.message().contains(text), "refused with: " + answer.message());
  }

  @When("^the (ImageAlternative|ImageMirror) ([a-z0-9.-]+) is changed to:$")
  public void theResourceIsChanged(String kind, String name, String yaml) {
    world().objects().changeResource(kind, name, yaml);
  }

  @When("^the (ImageAlternative|ImageMirror) ([a-z0-9.-]+) is deleted$")
  public void theResourceIsDeleted(String kind, String name) {
    world().objects().deleteResource(kind, name);
  }

  @When("^the (ImageAlternative|ImageMirror) ([a-z0-9.-]+) is deleted with foreground propagation$")
  public void theResourceIsDeletedInTheForeground(String kind, String name) {
    world().objects().deleteResourceInTheForeground(kind, name);
  }

  @Then(
      "^the (ImageAlternative|ImageMirror) ([a-z0-9.-]+) must be terminating with the finalizer (\\S+)$")
  public void mustBeTerminating(String kind, String name, String finalizer) {
    ObjectNode live =
        world()
            .views()
            .resource(kind, name)
            .orElseThrow(() -> new AssertionError(kind + "/" + name + " is gone already"));
    assertTrue(live.path("metadata").has("deletionTimestamp"), "no deletionTimestamp: " + live);
    assertEquals(List.of(finalizer), Meta.finalizers(live));
  }

  @Then("^the (ImageAlternative|ImageMirror) ([a-z0-9.-]+) must be gone$")
  public void mustBeGone(String kind, String name) {
    assertTrue(world().views().resource(kind, name).isEmpty(), kind + "/" + name + " still exists");
  }

  @Then(
      "^the (ImageAlternative|ImageMirror) ([a-z0-9.-]+) must have a (Warning|Normal) event (\\w+) saying \"(.*)\"$")
  public void mustHaveAnEvent(String kind, String name, String type, String reason, String text) {
    List<String> events = world().views().eventsOn(kind, name, type);
    assertTrue(
        events.stream().anyMatch(e -> e.startsWith(reason + ": ") && e.contains(text)),
        "no "
            + type
            + " event "
            + reason
            + " saying \""
            + text
            + "\" on "
            + kind
            + "/"
            + name
            + " among "
            + events);
  }
}
