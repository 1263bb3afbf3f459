package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.model.DockerConfig;
import io.kuik.model.RegistryCredential;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.world.object.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Source Secrets in the cluster resource namespace, and what the injected Secrets hold. */
public class SecretSteps {

  private final ScenarioState state;

  public SecretSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  @Given("^the Secret ([a-z0-9-]+) in ([a-z0-9-]+) (?:holds|is changed to hold) the credentials:$")
  public void theSecretHoldsTheCredentials(String name, String namespace, DataTable table) {
    Map<String, RegistryCredential> auths = new LinkedHashMap<>();
    for (Map<String, String> row : table.asMaps()) {
      auths.put(
          row.get("registry path"),
          RegistryCredential.basic(row.get("username"), row.get("password")));
    }
    world().objects().dockerRegistrySecret(namespace, name, auths);
  }

  /** A source that flaps: every second its one entry alternates between two passwords. */
  @When(
      "^the Secret ([a-z0-9-]+) in ([a-z0-9-]+) flips every second between ([^:\\s]+):(\\S+) and"
          + " ([^:\\s]+):(\\S+) for (\\S+) during (\\d+) minutes$")
  public void theSecretFlips(
      String name,
      String namespace,
      String user,
      String password,
      String otherUser,
      String otherPassword,
      String path,
      int minutes) {
    for (int second = 1; second <= minutes * 60; second++) {
      RegistryCredential credential =
          second % 2 == 0
              ? RegistryCredential.basic(user, password)
              : RegistryCredential.basic(otherUser, otherPassword);
      world().objects().dockerRegistrySecret(namespace, name, Map.of(path, credential));
      world().pass(java.time.Duration.ofSeconds(1));
    }
  }

  @Given("there is no Secret {word} in {word}")
  public void thereIsNoSecret(String name, String namespace) {
    assertTrue(
        world().views().secret(namespace, name).isEmpty(), namespace + "/" + name + " exists");
  }

  @Given("the Opaque Secret {word} in {word} holds {word}={word}")
  public void anOpaqueSecret(String name, String namespace, String key, String value) {
    world().objects().opaqueSecret(namespace, name, Map.of(key, value));
  }

  @Given("the Secret {word} in {word} holds a credential for {word} only")
  public void aCredentialForAnotherPath(String name, String namespace, String path) {
    world()
        .objects()
        .dockerRegistrySecret(
            namespace, name, Map.of(path, RegistryCredential.basic("someone", "elsewhere")));
  }

  @Given("the Secret {word} in {word} holds the docker config {string}")
  public void aDockerConfigText(String name, String namespace, String json) {
    world().objects().dockerConfigSecret(namespace, name, json);
  }

  @Given("the Secret {word} in {word} holds a docker config nested {int} levels deep")
  public void aDeeplyNestedDockerConfig(String name, String namespace, int depth) {
    world()
        .objects()
        .dockerConfigSecret(
            namespace, name, "{\"auths\":" + "[".repeat(depth) + "]".repeat(depth) + "}");
  }

  @Given(
      "the Secret {word} in {word} holds {int} other auths entries and the credentials"
          + " {word}:{word} for {word}")
  public void aSourceOfManyEntries(
      String name, String namespace, int entries, String user, String password, String path) {
    StringBuilder json = new StringBuilder("{\"auths\":{");
    for (int i = 0; i < entries; i++) {
      json.append("\"r").append(i).append(".example\":{},");
    }
    String auth =
        java.util.Base64.getEncoder()
            .encodeToString(
                (user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    json.append('"').append(path).append("\":{\"auth\":\"").append(auth).append("\"}}}");
    world().objects().dockerConfigSecret(namespace, name, json.toString());
  }

  @Given(
      "the Secret {word} in {word} of type kubernetes.io\\/dockercfg holds the docker config {string}")
  public void aLegacyDockercfgSecret(String name, String namespace, String json) {
    world().objects().legacyDockercfgSecret(namespace, name, json);
  }

  @When("the Secret {word} in {word} holds a {int} KiB password for {word}")
  public void aBigPassword(String name, String namespace, int kib, String path) {
    String password = "p".repeat(kib * 1024);
    world()
        .objects()
        .dockerRegistrySecret(
            namespace, name, Map.of(path, RegistryCredential.basic("big", password)));
  }

  @When("the Secret {word} in {word} is annotated {word}={word}")
  public void theSecretIsAnnotated(String name, String namespace, String key, String value) {
    world().objects().annotateSecret(namespace, name, key, value);
  }

  @When("a person deletes the Secret {word} in {word}")
  public void aPersonDeletesTheSecret(String name, String namespace) {
    world().objects().deleteSecret(namespace, name);
  }

  @Given(
      "before kuik's admission policy existed, a person created in {word} the immutable Secret {word} holding {string}")
  public void anImmutableSecretAtTheReservedName(String namespace, String name, String json) {
    world().objects().immutableSecretBeforeThePolicy(namespace, name, json);
  }

  // ---- assertions on the injected Secrets ----------------------------------------------------

  @Then("{word} must have the Secret {word}")
  public void mustHaveTheSecret(String namespace, String name) {
    assertTrue(
        world().views().secret(namespace, name).isPresent(), namespace + " has no Secret " + name);
  }

  @Then("each of {word}-1 to {word}-{int} must have the Secret {word}")
  public void eachMustHaveTheSecret(String prefix, String samePrefix, int last, String name) {
    List<String> without =
        NumberedNamespaces.of(prefix, samePrefix, last).stream()
            .filter(namespace -> world().views().secret(namespace, name).isEmpty())
            .toList();
    assertEquals(List.of(), without, "namespaces without the Secret " + name);
  }

  @Then("{word} must not have the Secret {word}")
  public void mustNotHaveTheSecret(String namespace, String name) {
    assertTrue(
        world().views().secret(namespace, name).isEmpty(), namespace + " has the Secret " + name);
  }

  @Then("^([a-z0-9-]+)'s ([a-z0-9.-]+) must be of type (\\S+)$")
  public void mustBeOfType(String namespace, String name, String type) {
    assertEquals(type, Json.text(live(namespace, name), "type"));
  }

  @Then("^([a-z0-9-]+)'s ([a-z0-9.-]+) must be labelled ([^=\\s]+)=(\\S+)$")
  public void mustBeLabelled(String namespace, String name, String key, String value) {
    assertEquals(value, Json.text(live(namespace, name), "metadata", "labels", key));
  }

  @Then(
      "^([a-z0-9-]+)'s ([a-z0-9.-]+) must be owned by the (ImageAlternative|ImageMirror) ([a-z0-9.-]+)$")
  public void mustBeOwnedBy(String namespace, String name, String kind, String owner) {
    JsonNode refs = live(namespace, name).path("metadata").path("ownerReferences");
    assertEquals(1, refs.size(), "one owner reference");
    JsonNode ref = refs.get(0);
    assertEquals(kind, ref.path("kind").asString());
    assertEquals(owner, ref.path("name").asString());
    assertEquals("kuik.enix.io/v1alpha1", ref.path("apiVersion").asString());
    assertTrue(ref.path("controller").asBoolean(), "the owner is the controller");
    ObjectNode resource =
        world()
            .views()
            .resource(kind, owner)
            .orElseThrow(() -> new AssertionError("no " + kind + " " + owner));
    assertEquals(Json.text(resource, "metadata", "uid"), ref.path("uid").asString());
  }

  @Then("^([a-z0-9-]+)'s ([a-z0-9.-]+) must hold auths for exactly:$")
  public void mustHoldAuthsForExactly(String namespace, String name, List<String> keys) {
    DockerConfig config = world().views().dockerConfigOf(namespace, name);
    assertEquals(new TreeSet<>(keys), new TreeSet<>(config.auths().keySet()));
  }

  @Then("^([a-z0-9-]+)'s ([a-z0-9.-]+) must hold ([^:\\s]+):(\\S+) for (\\S+)$")
  public void mustHoldTheCredential(
      String namespace, String name, String user, String password, String key) {
    DockerConfig config = world().views().dockerConfigOf(namespace, name);
    RegistryCredential credential = config.auths().get(key);
    assertNotNull(
        credential,
        name
            + " in "
            + namespace
            + " holds no auths for "
            + key
            + " but "
            + config.auths().keySet());
    assertEquals(user, credential.username(), "user name for " + key);
    assertTrue(
        password.equals(credential.password()),
        "the password for " + key + " is not the expected one");
  }

  @Then("^([a-z0-9-]+)'s ([a-z0-9.-]+) must hold \\{\"auths\":\\{\\}\\}$")
  public void mustHoldNoAuths(String namespace, String name) {
    assertEquals(Set.of(), world().views().dockerConfigOf(namespace, name).auths().keySet());
    assertEquals("{\"auths\":{}}", world().views().decodedDockerConfig(namespace, name));
  }

  @Given("the resourceVersion of {word}'s {word} is noted")
  public void theResourceVersionIsNoted(String namespace, String name) {
    state.noted.put(
        namespace + "/" + name, Json.text(live(namespace, name), "metadata", "resourceVersion"));
  }

  @Then("the resourceVersion of {word}'s {word} must be unchanged")
  public void theResourceVersionIsUnchanged(String namespace, String name) {
    assertEquals(
        state.noted.get(namespace + "/" + name),
        Json.text(live(namespace, name), "metadata", "resourceVersion"));
  }

  private ObjectNode live(String namespace, String name) {
    return world()
        .views()
        .secret(namespace, name)
        .orElseThrow(() -> new AssertionError(namespace + " has no Secret " + name));
  }
}
