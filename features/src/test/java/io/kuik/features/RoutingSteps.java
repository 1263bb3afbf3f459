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
        .registryServesAnonymously(
            host, Arrays.stream(images.split(",| and ")).map(String::trim).toList());
  }

  @Given("^the registry (\\S+) is (up|down)$")
  public void theRegistryIs(String host, String state) {
    if (state.equals("down")) {
      world().registryDown(host);
    } else {
      world().registryUp(host);
    }
  }

  @Given("^the ServiceAccount ([a-z0-9-]+) in ([a-z0-9-]+) lists the pull secret ([a-z0-9-]+)$")
  public void theServiceAccountListsAPullSecret(String account, String namespace, String secret) {
    world().serviceAccountPullSecrets(namespace, account, List.of(secret));
  }

  @When(
      "^a pod ([a-z0-9-]+) using (\\S+?)(?: and (\\S+))?( with its own pull secret [a-z0-9-]+)?(?: with the ServiceAccount ([a-z0-9-]+))?( that kuik already routed)? is created in ([a-z0-9-]+)$")
  public void aPodIsCreated(
      String pod,
      String image,
      String second,
      String ownSecret,
      String serviceAccount,
      String routed,
      String namespace) {
    Map<String, String> containers = new LinkedHashMap<>();
    containers.put("app", image);
    if (second != null) {
      containers.put("sidecar", second);
    }
    Map<String, String> annotations = new LinkedHashMap<>();
    if (routed != null) {
      annotations.put(
          RewriteAnnotations.ORIGINAL_IMAGES, RewriteAnnotations.writeMap(Map.of("app", image)));
    }
    List<String> pullSecrets = new ArrayList<>();
    if (ownSecret != null) {
      pullSecrets.add(ownSecret.substring(ownSecret.lastIndexOf(' ') + 1));
    }
    world().submitPod(namespace, pod, containers, annotations, pullSecrets, serviceAccount);
  }

  @Then("the webhook must not have been asked about any pod of {word} or {word}")
  public void theWebhookWasNotAsked(String first, String second) {
    var asked =
        world().webhook().admissions().stream()
            .filter(a -> a.namespace().equals(first) || a.namespace().equals(second))
            .toList();
    org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), asked);
  }

  @When("the webhook stops")
  public void theWebhookStops() {
    world().webhook().stop();
  }

  @When("the webhook starts")
  public void theWebhookStarts() {
    world().webhook().start();
  }

  @Then("the pod {word} in {word} must run {word}")
  public void thePodRuns(String pod, String namespace, String image) {
    JsonNode containers = world().pod(namespace, pod).path("spec").path("containers");
    assertEquals(image, containers.get(0).path("image").asString());
  }

  @Then("the pod {word} in {word} must reference the Secret {word}")
  public void thePodReferences(String pod, String namespace, String secret) {
    List<String> refs = pullSecrets(world().pod(namespace, pod));
    assertTrue(refs.contains(secret), "imagePullSecrets: " + refs);
    assertEquals(1, refs.stream().filter(secret::equals).count(), "referenced once: " + refs);
  }

  @Then("the pod {word} in {word} must not reference the Secret {word}")
  public void thePodDoesNotReference(String pod, String namespace, String secret) {
    List<String> refs = pullSecrets(world().pod(namespace, pod));
    assertFalse(refs.contains(secret), "imagePullSecrets: " + refs);
  }

  @Then("^the pod ([a-z0-9-]+) in ([a-z0-9-]+) must be labelled ([^=\\s]+)=(\\S+)$")
  public void thePodIsLabelled(String pod, String namespace, String key, String value) {
    JsonNode labels = world().pod(namespace, pod).path("metadata").path("labels");
    assertEquals(value, labels.has(key) ? labels.get(key).asString() : null, "labels: " + labels);
  }

  @Then("^the pod ([a-z0-9-]+) in ([a-z0-9-]+) must not be labelled ([^=\\s]+)$")
  public void thePodIsNotLabelled(String pod, String namespace, String key) {
    JsonNode labels = world().pod(namespace, pod).path("metadata").path("labels");
    assertFalse(labels.has(key), "labels: " + labels);
  }

  @Then("the pod {word} in {word} must be annotated as rewritten by {word}")
  public void annotatedAsRewrittenBy(String pod, String namespace, String rewriter) {
    ObjectNode object = world().pod(namespace, pod);
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
