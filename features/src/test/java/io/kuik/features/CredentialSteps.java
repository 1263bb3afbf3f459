package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.kuik.model.Redactor;
import io.kuik.model.RegistryCredential;
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

  /** The logins the registry answered so, as its trace notes say ("refused as acme"). */
  @Then("^the registry (\\S+) must have (refused|accepted) at most (\\d+) logins?$")
  public void theRegistryAnsweredAtMost(String host, String outcome, int most) {
    long answered =
        world().history().registryLogins(host).stream()
            .filter(note -> note.outcome().startsWith(outcome + " "))
            .count();
    assertTrue(
        answered <= most,
        () -> answered + " logins " + outcome + ": " + world().history().registryLogins(host));
    assertTrue(answered > 0, "none " + outcome);
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

  @Given("the registry {word} echoes the credentials it refuses")
  public void theRegistryEchoes(String host) {
    world().actions().registryEchoesWhatItRefuses(host);
  }

  /**
   * No form of the credential (the password, its URL encoding, the base64 pair, …) in a line of the
   * trace, an Event, or the resource as the API server holds it, status included.
   */
  @Then(
      "^nothing kuik wrote about the ImageAlternative ([a-z0-9.-]+) must hold any form of ([^:\\s]+):(\\S+)$")
  public void noFormAnywhere(String name, String user, String password) {
    Redactor forms = Redactor.of(List.of(RegistryCredential.basic(user, password)));
    // The form the review found echoed, spelled out here rather than taken from the redactor.
    String basic =
        java.util.Base64.getEncoder()
            .encodeToString(
                (user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    for (TraceRecord record : world().history().records()) {
      String line = world().history().line(record);
      assertFalse(forms.shows(line) || line.contains(basic), line);
    }
    for (String type : List.of("Warning", "Normal")) {
      for (String event : world().views().eventsOn("ImageAlternative", name, type)) {
        assertFalse(forms.shows(event) || event.contains(basic), event);
      }
    }
    String stored = world().views().resource("ImageAlternative", name).orElseThrow().toString();
    assertTrue(stored.contains(Redactor.MARK), "the echo was there, redacted: " + stored);
    assertFalse(forms.shows(stored), stored);
    assertFalse(stored.contains(basic.substring(0, basic.length() - 2)), stored);
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
