package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.model.RewriteAnnotations;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.world.object.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Pods submitted through kuik's webhook, and what it made of them. */
public class RoutingSteps {

  private final ScenarioState state;

  public RoutingSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  @Given("^the registry (\\S+) serves (.+) to anyone$")
  public void theRegistryServesAnyone(String host, String images) {
    world()
        .actions()
        .registryServesAnonymously(
            host, Arrays.stream(images.split(",| and ")).map(String::trim).toList());
  }

  @Given("^the registry (\\S+) is (up|down)$")
  public void theRegistryIs(String host, String state) {
    if (state.equals("down")) {
      world().faults().registryDown(host);
    } else {
      world().faults().registryUp(host);
    }
  }

  @Given("^the ServiceAccount ([a-z0-9-]+) in ([a-z0-9-]+) lists the pull secret ([a-z0-9-]+)$")
  public void theServiceAccountListsAPullSecret(String account, String namespace, String secret) {
    world().workloads().serviceAccountPullSecrets(namespace, account, List.of(secret));
  }

  // One step definition per wording, each with no optional group: a group that does not match
  // makes Cucumber's report print the step's text again for each.
  @When("a pod {word} using {word} is created in {word}")
  public void aPodIsCreated(String pod, String image, String namespace) {
    world().workloads().submitPod(namespace, pod, Map.of("app", image), Map.of(), List.of(), null);
  }

  @When("a pod {word} using {word} and {word} is created in {word}")
  public void aPodOfTwoContainersIsCreated(
      String pod, String image, String sidecar, String namespace) {
    Map<String, String> containers = new LinkedHashMap<>();
    containers.put("app", image);
    containers.put("sidecar", sidecar);
    world().workloads().submitPod(namespace, pod, containers, Map.of(), List.of(), null);
  }

  @When("a pod {word} using {word} on the node {word} is created in {word}")
  public void aPodOnANodeIsCreated(String pod, String image, String node, String namespace) {
    world().workloads().submitPodOnNode(namespace, pod, image, node);
  }

  @When("a pod {word} using {word} and {word} with its own pull secret {word} is created in {word}")
  public void aPodWithASidecarAndItsOwnPullSecretIsCreated(
      String pod, String image, String sidecar, String ownSecret, String namespace) {
    Map<String, String> containers = new LinkedHashMap<>();
    containers.put("app", image);
    containers.put("sidecar", sidecar);
    world().workloads().submitPod(namespace, pod, containers, Map.of(), List.of(ownSecret), null);
  }

  @When("a pod {word} using {word} with the ServiceAccount {word} is created in {word}")
  public void aPodWithAServiceAccountIsCreated(
      String pod, String image, String serviceAccount, String namespace) {
    world()
        .workloads()
        .submitPod(namespace, pod, Map.of("app", image), Map.of(), List.of(), serviceAccount);
  }

  @When("a pod {word} using {word} that kuik already routed is created in {word}")
  public void aRoutedPodIsCreated(String pod, String image, String namespace) {
    Map<String, String> annotations =
        Map.of(
            RewriteAnnotations.ORIGINAL_IMAGES, RewriteAnnotations.writeMap(Map.of("app", image)));
    world()
        .workloads()
        .submitPod(namespace, pod, Map.of("app", image), annotations, List.of(), null);
  }

  @Then("the webhook must not have been asked about any pod of {word} or {word}")
  public void theWebhookWasNotAsked(String first, String second) {
    var asked =
        world().install().webhook().admissions().stream()
            .filter(a -> a.namespace().equals(first) || a.namespace().equals(second))
            .toList();
    org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), asked);
  }

  @When("the webhook stops")
  public void theWebhookStops() {
    world().install().webhook().stop();
  }

  @When("the webhook starts")
  public void theWebhookStarts() {
    world().install().webhook().start();
  }

  @Then("the pod {word} in {word} must run {word}")
  public void thePodRuns(String pod, String namespace, String image) {
    JsonNode containers = world().views().pod(namespace, pod).path("spec").path("containers");
    assertEquals(image, containers.get(0).path("image").asString());
  }

  @Then("the pod {word} in {word} must reference the Secret {word}")
  public void thePodReferences(String pod, String namespace, String secret) {
    List<String> refs = pullSecrets(world().views().pod(namespace, pod));
    assertTrue(refs.contains(secret), "imagePullSecrets: " + refs);
    assertEquals(1, refs.stream().filter(secret::equals).count(), "referenced once: " + refs);
  }

  @Then("the pod {word} in {word} must not reference the Secret {word}")
  public void thePodDoesNotReference(String pod, String namespace, String secret) {
    List<String> refs = pullSecrets(world().views().pod(namespace, pod));
    assertFalse(refs.contains(secret), "imagePullSecrets: " + refs);
  }

  @Then("^the pod ([a-z0-9-]+) in ([a-z0-9-]+) must be labelled ([^=\\s]+)=(\\S+)$")
  public void thePodIsLabelled(String pod, String namespace, String key, String value) {
    JsonNode labels = world().views().pod(namespace, pod).path("metadata").path("labels");
    assertEquals(value, labels.has(key) ? labels.get(key).asString() : null, "labels: " + labels);
  }

  @Then("^the pod ([a-z0-9-]+) in ([a-z0-9-]+) must not be labelled ([^=\\s]+)$")
  public void thePodIsNotLabelled(String pod, String namespace, String key) {
    JsonNode labels = world().views().pod(namespace, pod).path("metadata").path("labels");
    assertFalse(labels.has(key), "labels: " + labels);
  }

  @Then("the pod {word} in {word} must be annotated as rewritten by {word}")
  public void annotatedAsRewrittenBy(String pod, String namespace, String rewriter) {
    ObjectNode object = world().views().pod(namespace, pod);
    Map<String, String> annotations = new LinkedHashMap<>();
    object
        .path("metadata")
        .path("annotations")
        .properties()
        .forEach(e -> annotations.put(e.getKey(), e.getValue().asString()));
    assertEquals(
        rewriter,
        RewriteAnnotations.readMap(annotations, RewriteAnnotations.REWRITTEN_BY).get("app"));
    assertFalse(
        RewriteAnnotations.readMap(annotations, RewriteAnnotations.ORIGINAL_IMAGES).isEmpty());
    assertTrue(annotations.containsKey(RewriteAnnotations.REASON), "reason annotation");
  }

  private static List<String> pullSecrets(ObjectNode pod) {
    List<String> names = new ArrayList<>();
    pod.path("spec").path("imagePullSecrets").forEach(ref -> names.add(Json.text(ref, "name")));
    return names;
  }
}
