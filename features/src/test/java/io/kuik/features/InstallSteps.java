package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Installs with values of one's own, several releases side by side, and what each process was told
 * (features/installing-it-every-way.feature).
 */
public class InstallSteps {

  private final ScenarioState state;

  public InstallSteps(ScenarioState state) {
    this.state = state;
  }

  private io.kuik.sim.dsl.KuikWorld world() {
    return state.world();
  }

  @Given("kuik is installed as the release {word} in the namespace {word} with the values:")
  public void installedWithValues(String release, String namespace, DataTable values) {
    world().install().install(release, namespace, sets(values));
    world().pass(Duration.ofSeconds(1));
  }

  @Given("the release {word} is installed beside it in the namespace {word} with the values:")
  public void installedBeside(String release, String namespace, DataTable values) {
    world().install().installBeside(release, namespace, sets(values));
    world().pass(Duration.ofSeconds(1));
  }

  @Then("the syncer of the release {word} must write under the admission policy {word}")
  public void writesUnder(String release, String policy) {
    var bounds = world().install().syncerOfRelease(release).bounds().orElseThrow();
    assertTrue(bounds.inPlace(), bounds.why());
    assertTrue(bounds.why().contains(policy), bounds.why());
  }

  @Then("the Lease {word} in {word} must be fresh")
  public void leaseFresh(String lease, String namespace) {
    assertTrue(
        world().views().leaseFresh(namespace, lease), lease + " renewed within its duration");
  }

  @Then("the Lease {word} in {word} must be stale")
  public void leaseStale(String lease, String namespace) {
    assertEquals(false, world().views().leaseFresh(namespace, lease), lease + " not renewed");
  }

  @io.cucumber.java.en.When("the syncer of the release {word} crashes")
  public void crashes(String release) {
    world().install().syncerOfRelease(release).crash();
  }

  private static List<String> sets(DataTable values) {
    List<String> sets = new ArrayList<>();
    for (Map<String, String> row : values.asMaps()) {
      sets.add(row.get("value") + "=" + row.get("is"));
    }
    return sets;
  }
}
