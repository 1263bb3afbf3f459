package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.model.WriteBounds;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.trace.RequestKind;

/** The admission policy that bounds the syncer's writes, there or not, and the syncer's answer. */
public class WriteBoundsSteps {

  private final ScenarioState state;

  public WriteBoundsSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  @Given(
      "kuik is installed in the namespace kuik-system as Helm orders it, its admission policy and"
          + " binding created {int} seconds after the syncer starts")
  public void installedAsHelmOrdersIt(int seconds) {
    world().install().installWithThePolicyCreated(java.time.Duration.ofSeconds(seconds));
  }

  @When("the admission policy's binding is deleted")
  public void theBindingIsDeleted() {
    world().install().deleteThePolicyBinding();
  }

  @When("the admission policy is deleted")
  public void thePolicyIsDeleted() {
    world().install().deleteThePolicy();
  }

  @When("Helm creates the admission policy and its binding again")
  public void helmCreatesThePolicy() {
    world().install().createThePolicy();
  }

  @Then("the syncer must have sent no apply at all")
  public void noApplyAtAll() {
    assertEquals(
        0,
        world().history().syncerRequests().stream()
            .filter(r -> r.kind() == RequestKind.APPLY || r.kind() == RequestKind.CREATE)
            .count(),
        "the syncer's writes: " + world().history().syncerRequests());
  }

  @Then("the syncer must not be ready, saying {string}")
  public void notReady(String why) {
    assertFalse(world().install().syncer().ready(), "the syncer is ready");
    String said = world().install().syncer().bounds().map(WriteBounds::why).orElse("(not running)");
    assertTrue(said.contains(why), "the syncer says: " + said);
  }

  @Then("the syncer must be ready")
  public void ready() {
    assertTrue(
        world().install().syncer().ready(),
        "not ready: "
            + world().install().syncer().bounds().map(WriteBounds::why).orElse("(not running)"));
  }
}
