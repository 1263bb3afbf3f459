package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** What {@code kubectl get} shows of the routing resources: their printer columns and status. */
public class StatusSteps {

  private final ScenarioState state;

  public StatusSteps(ScenarioState state) {
    this.state = state;
  }

  /**
   * The rows kubectl prints, compared on the columns the table names (NAME first), e.g. {@code
   * kubectl get imagealternatives,imagemirrors -o wide}.
   */
  @Then("^`kubectl get ([a-z,]+)(?: -o wide)?` must show:$")
  public void kubectlGetShows(String plurals, DataTable expected) {
    List<String> headers = expected.row(0);
    List<Map<String, String>> actual = new ArrayList<>();
    for (Map<String, String> row :
        state.world().views().kubectlGet(Arrays.asList(plurals.split(",")))) {
      Map<String, String> shown = new LinkedHashMap<>();
      for (String header : headers) {
        shown.put(header, row.getOrDefault(header, "(no column " + header + ")"));
      }
      actual.add(shown);
    }
    assertEquals(expected.asMaps(), actual);
  }

  @Then(
      "^the (ImageAlternative|ImageMirror) ([a-z0-9.-]+)'s condition (Valid|CredentialsAccepted|ProviderCredentialsValid) must be (True|False|Unknown) with reason (\\w+) saying \"(.*)\"$")
  public void theConditionIs(
      String kind, String name, String type, String status, String reason, String text) {
    ObjectNode live =
        state
            .world()
            .views()
            .resource(kind, name)
            .orElseThrow(() -> new AssertionError(kind + " gone"));
    JsonNode valid = null;
    for (JsonNode condition : live.path("status").path("conditions")) {
      if (type.equals(condition.path("type").asString())) {
        valid = condition;
      }
    }
    assertTrue(valid != null, "no condition " + type + ": " + live.path("status"));
    assertEquals(status, valid.path("status").asString(), valid.toString());
    assertEquals(reason, valid.path("reason").asString(), valid.toString());
    assertTrue(valid.path("message").asString().contains(text), valid.toString());
    assertEquals(
        live.path("metadata").path("generation").asLong(),
        valid.path("observedGeneration").asLong(),
        "observedGeneration");
  }

  /**
   * {@code status.credentials}: each injecting entry, its registry, the outcome of its last trial,
   * and words its registry's answer holds ("" for none).
   */
  @Then("^the (ImageAlternative|ImageMirror) ([a-z0-9.-]+)'s status must show the credentials:$")
  public void theCredentialsAre(String kind, String name, DataTable expected) {
    ObjectNode live =
        state
            .world()
            .views()
            .resource(kind, name)
            .orElseThrow(() -> new AssertionError(kind + " gone"));
    List<Map<String, String>> actual = new ArrayList<>();
    List<Map<String, String>> rows = expected.asMaps();
    int i = 0;
    for (JsonNode entry : live.path("status").path("credentials")) {
      Map<String, String> shown = new LinkedHashMap<>();
      shown.put("entry", entry.path("entry").asString());
      shown.put("registry", entry.path("registry").asString());
      shown.put("outcome", entry.path("outcome").asString());
      String answer = entry.path("answer").asString("");
      String words = i < rows.size() ? rows.get(i).get("answer holds") : "";
      shown.put("answer holds", answer.contains(words) ? words : answer);
      actual.add(shown);
      i++;
    }
    assertEquals(rows, actual, live.path("status").toString());
  }

  @Then(
      "^the syncer must have written the status of the (ImageAlternative|ImageMirror) ([a-z0-9.-]+) at most (\\d+) times$")
  public void statusWrittenAtMost(String kind, String name, int most) {
    int written = state.world().history().syncerStatusWrites(kind, name).size();
    assertTrue(written >= 1, "no status write of " + kind + "/" + name);
    assertTrue(written <= most, written + " status writes of " + kind + "/" + name);
  }
}
