package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.dsl.Views;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Pods as the webhook leaves them, the kubelet's pulls, and the registries it pulls from. */
public class PodSteps {

  private final ScenarioState state;

  public PodSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  @Given("^the registry (\\S+) serves (.+) to ([^:\\s]+):(\\S+) only$")
  public void theRegistryServes(String host, String images, String user, String password) {
    List<String> list =
        Arrays.stream(images.split(",| and ")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    world().actions().registryServes(host, list, user, password);
  }

  // One step definition per wording, each with no optional group: a group that does not match
  // makes Cucumber's report print the step's text again for each.
  private static final String REWRITTEN =
      "^the pod ([a-z0-9-]+) in ([a-z0-9-]+) is rewritten by"
          + " ((?:ImageAlternative|ImageMirror)/[a-z0-9.-]+) to (\\S+)";

  @When(REWRITTEN + "$")
  public void aRewrittenPod(String pod, String namespace, String rewriter, String image) {
    world().workloads().rewrittenPod(namespace, pod, rewriter, image, Map.of(), List.of(), null);
  }

  @When(REWRITTEN + " beside a container ([a-z0-9-]+) on (\\S+)$")
  public void aRewrittenPodWithAnotherContainer(
      String pod,
      String namespace,
      String rewriter,
      String image,
      String other,
      String otherImage) {
    world()
        .workloads()
        .rewrittenPod(namespace, pod, rewriter, image, Map.of(other, otherImage), List.of(), null);
  }

  @When(REWRITTEN + " with its own pull secret ([a-z0-9-]+)$")
  public void aRewrittenPodWithItsOwnPullSecret(
      String pod, String namespace, String rewriter, String image, String ownSecret) {
    world()
        .workloads()
        .rewrittenPod(namespace, pod, rewriter, image, Map.of(), List.of(ownSecret), null);
  }

  @When(REWRITTEN + " with restartPolicy (Always|OnFailure|Never)$")
  public void aRewrittenPodWithARestartPolicy(
      String pod, String namespace, String rewriter, String image, String restartPolicy) {
    world()
        .workloads()
        .rewrittenPod(namespace, pod, rewriter, image, Map.of(), List.of(), restartPolicy);
  }

  @When(
      "^the pod ([a-z0-9-]+) in ([a-z0-9-]+) was rewritten by ((?:ImageAlternative|ImageMirror)/[a-z0-9.-]+) to (\\S+) by a webhook that did not label it$")
  public void aPodRewrittenWithoutTheLabel(
      String pod, String namespace, String rewriter, String image) {
    world().workloads().rewrittenPodWithoutLabel(namespace, pod, rewriter, image);
  }

  @When(
      "^a tenant of ([a-z0-9-]+) creates the pod ([a-z0-9-]+) with the webhook's label and annotations claiming a rewrite by ((?:ImageAlternative|ImageMirror)/[a-z0-9.-]+) to (\\S+)$")
  public void aForgedPod(String namespace, String pod, String rewriter, String image) {
    world().workloads().forgedPod(namespace, pod, rewriter, image);
  }

  @When("^the pod ([a-z0-9-]+) in ([a-z0-9-]+) is labelled ([^=\\s]+)=(\\S+)$")
  public void thePodIsLabelled(String pod, String namespace, String key, String value) {
    world().workloads().labelPod(namespace, pod, key, value);
  }

  @When("the pod {word} in {word} is deleted")
  public void thePodIsDeleted(String pod, String namespace) {
    world().workloads().deletePod(namespace, pod);
  }

  @When("the container of the pod {word} in {word} exits with code {int}")
  public void theContainerExits(String pod, String namespace, int exitCode) {
    world().workloads().containerExits(namespace, pod, exitCode);
  }

  @Then("the pod {word} in {word} must be {word}")
  public void thePodMustBe(String pod, String namespace, String phase) {
    assertEquals(
        phase, world().views().podPhase(namespace, pod), "the phase of " + namespace + "/" + pod);
  }

  @Then("{word} must have no pods")
  public void noPods(String namespace) {
    assertEquals(List.of(), world().views().pods(namespace));
  }

  @Then("^the pod ([a-z0-9-]+) in ([a-z0-9-]+) must be Running within (.+)$")
  public void runningWithin(String pod, String namespace, String limit) {
    Optional<Duration> took =
        world().workloads().runUntilRunning(namespace, pod, Durations.parse(limit));
    assertTrue(
        took.isPresent(),
        pod
            + " in "
            + namespace
            + " is not Running after "
            + limit
            + "; pulls: "
            + world().views().pullsOf(namespace, pod));
  }

  @Then("the kubelet's first pull for {word} in {word} must fail for want of a credential")
  public void theFirstPullFails(String pod, String namespace) {
    for (int i = 0; i < 50 && world().views().pullsOf(namespace, pod).isEmpty(); i++) {
      world().pass(Duration.ofMillis(100));
    }
    List<Views.Pull> pulls = world().views().pullsOf(namespace, pod);
    assertFalse(pulls.isEmpty(), "the kubelet has not pulled for " + pod);
    assertFalse(pulls.get(0).succeeded(), "the first pull succeeded: " + pulls.get(0));
    assertEquals("UNAUTHORIZED", pulls.get(0).outcome(), "first pull " + pulls.get(0));
  }

  @Then("the kubelet must have pulled for {word} in {word} with no failed attempt")
  public void pulledWithNoFailedAttempt(String pod, String namespace) {
    List<Views.Pull> pulls = world().views().pullsOf(namespace, pod);
    assertFalse(pulls.isEmpty(), "the kubelet has not pulled for " + pod);
    assertTrue(pulls.stream().allMatch(Views.Pull::succeeded), "failed pulls: " + pulls);
  }

  @Then(
      "the kubelet must have tried {word} for {word} in {word} only as {word}, refused every time")
  public void triedOnlyAsAndRefused(String image, String pod, String namespace, String user) {
    List<Views.Pull> pulls =
        world().views().pullsOf(namespace, pod).stream()
            .filter(p -> p.image().endsWith(image))
            .toList();
    assertFalse(pulls.isEmpty(), "no pull of " + image + " for " + pod);
    for (Views.Pull pull : pulls) {
      assertEquals(user, pull.username(), "a pull not as " + user + " (null: anonymous): " + pulls);
      assertEquals("UNAUTHORIZED", pull.outcome(), "a pull not refused: " + pulls);
    }
  }

  @Then("the container {word} of the pod {word} in {word} must be waiting in {word}")
  public void theContainerWaits(String container, String pod, String namespace, String reason) {
    assertEquals(reason, world().views().waitingReason(namespace, pod, container));
  }

  @Then("the pod {word} in {word} must have a Warning event {word} saying {string}")
  public void aWarningOnThePod(String pod, String namespace, String reason, String message) {
    List<String> warnings = world().views().eventsOnPod(namespace, pod, "Warning");
    assertTrue(
        warnings.contains(reason + ": " + message), "Warning events of " + pod + ": " + warnings);
  }

  @Then("the pod {word} in {word} must have exactly {int} Warning event(s) {word}")
  public void warningsOnThePod(String pod, String namespace, int count, String reason) {
    List<String> warnings = world().views().eventsOnPod(namespace, pod, "Warning");
    assertEquals(
        count,
        warnings.stream().filter(w -> w.startsWith(reason + ": ")).count(),
        "Warning events of " + pod + ": " + warnings);
  }

  @Then("the syncer must have counted {int} pod(s) whose rewrite it does not recognize, for {word}")
  public void podsNotRecognized(int count, String reason) {
    assertEquals(count, world().history().rewritesNotRecognized(reason));
  }

  @Then("the kubelet must have pulled {word} for {word} in {word} as {word}")
  public void pulledAs(String image, String pod, String namespace, String user) {
    List<Views.Pull> pulls = world().views().pullsOf(namespace, pod);
    assertTrue(
        pulls.stream()
            .anyMatch(p -> p.succeeded() && p.image().endsWith(image) && user.equals(p.username())),
        "no successful pull of " + image + " as " + user + " among " + pulls);
  }
}
