package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.selftest.CheckResult;
import io.kuik.selftest.SelftestReport;
import io.kuik.selftest.SelftestSettings;
import io.kuik.sim.trace.Answer;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.TraceRecord;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code helm test}: the chart's test pod running {@code kuik selftest}, and what it left. */
public class HelmTestSteps {

  private final ScenarioState state;
  private SelftestReport report;

  public HelmTestSteps(ScenarioState state) {
    this.state = state;
  }

  @When("`helm test kuik` runs")
  public void helmTestRuns() {
    report = state.world().install().helmTest();
  }

  @When("`helm test kuik` runs with the pod check of {word} in {word}")
  public void helmTestRunsWithThePodCheck(String image, String namespace) {
    report = state.world().install().helmTest(new SelftestSettings.PodCheck(namespace, image));
  }

  @Then("^the test must (pass|fail) with the rows:$")
  public void theTestMust(String verdict, DataTable rows) {
    assertTrue(report != null, "no helm test ran");
    assertEquals(verdict.equals("pass"), report.passed(), report.text());
    for (Map<String, String> row : rows.asMaps()) {
      CheckResult shown = report.row(row.get("check"));
      assertEquals(
          row.get("result"), shown.result().name().toLowerCase(Locale.ROOT), report.text());
      assertTrue(
          shown.why().contains(row.get("saying")),
          () -> "expected \"" + row.get("saying") + "\" in\n" + report.text());
    }
  }

  @Then("the test must have sent only reads and dry-run creates, each allowed by the chart's RBAC")
  public void onlyReadsAndDryRuns() {
    List<TraceRecord.Request> requests = state.world().history().selftestRequests();
    assertFalse(requests.isEmpty(), "the test sent no request");
    for (TraceRecord.Request request : requests) {
      String line = state.world().history().line(request);
      boolean read = request.kind().reads();
      boolean dryRun =
          request.kind() == RequestKind.CREATE
              && (request.answer() instanceof Answer.DryRun
                  || request.answer() instanceof Answer.Refused refused
                      && refused.stage() == io.kuik.sim.trace.Stage.ADMISSION_POLICY);
      assertTrue(read || dryRun, "neither a read nor a dry run: " + line);
      assertFalse(
          request.answer() instanceof Answer.Refused refused
              && refused.stage() == io.kuik.sim.trace.Stage.AUTHORIZATION,
          "refused by RBAC: " + line);
      assertFalse(request.changedSomething(), "stored something: " + line);
    }
  }

  @When("the administrator deletes the {word} {word}")
  public void theAdministratorDeletes(String kind, String name) {
    state.world().objects().delete(kind, null, name);
  }

  @Then("^the API server must hold no (\\w+) ((?:[a-z0-9-]+/)?[a-z0-9.-]+)$")
  public void holdsNo(String kind, String where) {
    int slash = where.indexOf('/');
    String namespace = slash < 0 ? null : where.substring(0, slash);
    String name = where.substring(slash + 1);
    assertTrue(
        state.world().views().object(kind, namespace, name).isEmpty(),
        () -> kind + " " + where + " is still there");
  }

  @Then("the API server must hold no pods in {word}")
  public void holdsNoPods(String namespace) {
    assertEquals(List.of(), state.world().views().pods(namespace));
  }
}
