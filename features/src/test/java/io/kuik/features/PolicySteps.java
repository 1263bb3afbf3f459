package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.sim.actors.Helm;
import io.kuik.sim.actors.KubectlReplace;
import io.kuik.sim.actors.Velero;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** Writes by the syncer's identity and by others, against the chart's admission policy. */
public class PolicySteps {

  /** A bot with cluster-admin rights, as CI pipelines often have. */
  static final Identity CI_BOT = Identity.person("ci-bot", "system:masters");

  private final ScenarioState state;
  private KuikWorld.Answer answer;
  private List<KubectlReplace.Outcome> replaced;
  private Instant replacedAt;
  private final Map<String, Velero.Backup> backups = new HashMap<>();
  private final Map<String, Identity> tenants = new HashMap<>();
  private Velero.RestoreResult restore;

  public PolicySteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  private Identity who(String who) {
    switch (who) {
      case "a person":
        return KuikWorld.ADMIN;
      case "a CI bot":
        return CI_BOT;
      case "Helm":
        return Helm.IDENTITY;
      default:
        throw new IllegalArgumentException("who is " + who + "?");
    }
  }

  @When(
      "^the syncer's (identity|ServiceAccount with a token bound to no pod) applies in ([a-z0-9-]+) a Secret ([a-z0-9.-]+) of type (\\S+) (?:unlabelled|labelled ([^=\\s]+)=(\\S+))$")
  public void theSyncersIdentityApplies(
      String token, String namespace, String name, String type, String key, String value) {
    Map<String, String> labels = key == null ? Map.of() : Map.of(key, value);
    var secret = KuikWorld.secretManifest(namespace, name, type, labels);
    Identity syncer =
        token.equals("identity")
            ? world().syncer().identity()
            : world().syncerAccountWithALegacyToken();
    answer = world().attempt(() -> world().api().apply(syncer, secret, "kuik-secret-syncer", true));
  }

  @Given("the ServiceAccount {word} in {word} may create and patch Secrets there")
  public void aTenantServiceAccount(String name, String namespace) {
    tenants.put(namespace + "/" + name, world().serviceAccountThatWritesSecrets(namespace, name));
  }

  @Given("a kuik release is installed in the namespace {word}, listed by no other release")
  public void anUnlistedRelease(String namespace) {
    world().installUnlistedRelease(namespace);
  }

  @When(
      "^(?:the ServiceAccount ([a-z0-9-]+) of|the syncer of the release in) ([a-z0-9-]+) applies in ([a-z0-9-]+) a Secret ([a-z0-9.-]+) of type (\\S+) labelled ([^=\\s]+)=(\\S+)$")
  public void anotherIdentityApplies(
      String account,
      String accountNamespace,
      String namespace,
      String name,
      String type,
      String key,
      String value) {
    Identity who =
        account == null
            ? world().syncerIdentityOf(accountNamespace)
            : tenants.get(accountNamespace + "/" + account);
    var secret = KuikWorld.secretManifest(namespace, name, type, Map.of(key, value));
    answer = world().attempt(() -> world().api().apply(who, secret, "kuik-secret-syncer", true));
  }

  @When("the syncer's identity gets the Secret {word} in {word}")
  public void theSyncersIdentityGets(String name, String namespace) {
    Identity syncer = world().syncer().identity();
    answer = world().attempt(() -> world().api().get(syncer, ResourceType.SECRET, namespace, name));
  }

  @When("the syncer's identity deletes the Secret {word} in {word}")
  public void theSyncersIdentityDeletes(String name, String namespace) {
    Identity syncer = world().syncer().identity();
    state.deletesSentAsTheSyncer++;
    answer =
        world().attempt(() -> world().api().delete(syncer, ResourceType.SECRET, namespace, name));
  }

  @Given("the API server enforces OwnerReferencesPermissionEnforcement")
  public void theApiServerEnforcesOwnerReferencesPermission() {
    world().enforceOwnerReferencesPermission();
  }

  @Given("kuik is upgraded with syncer.ownerReferencesPermissionEnforcement=true")
  public void kuikIsUpgradedWithOwnerReferencesPermission() {
    world().upgradeWithOwnerReferencesPermission();
  }

  @Then("the syncer's applies of {word} in {word} must have been refused saying {string}")
  public void theSyncersAppliesWereRefused(String name, String namespace, String text) {
    var refused =
        world().syncerApplies(namespace, name).stream()
            .filter(r -> !r.succeeded() && r.message() != null && r.message().contains(text))
            .toList();
    assertFalse(
        refused.isEmpty(),
        "no apply refused saying \"" + text + "\": " + world().syncerApplies(namespace, name));
  }

  @When("the syncer's identity lists the Secrets of every namespace")
  public void theSyncersIdentityListsEverywhere() {
    Identity syncer = world().syncer().identity();
    answer = world().attempt(() -> world().api().list(syncer, ResourceType.SECRET, null));
  }

  @When("^(a person|a CI bot|Helm) creates in ([a-z0-9-]+) a Secret ([a-z0-9.-]+) of type (\\S+)$")
  public void someoneCreates(String who, String namespace, String name, String type) {
    var secret = KuikWorld.secretManifest(namespace, name, type, Map.of());
    answer = world().attempt(() -> world().api().create(who(who), secret));
  }

  @When(
      "^(a person|a CI bot|Helm) creates in ([a-z0-9-]+) a Secret named from generateName ([a-z0-9.-]+) of type (\\S+)$")
  public void someoneCreatesWithGenerateName(
      String who, String namespace, String prefix, String type) {
    var secret = KuikWorld.secretManifest(namespace, "unused", type, Map.of());
    var metadata = (tools.jackson.databind.node.ObjectNode) secret.get("metadata");
    metadata.remove("name");
    metadata.put("generateName", prefix);
    answer = world().attempt(() -> world().api().create(who(who), secret));
  }

  @When("^(a person|a CI bot|Helm) adds the finalizer (\\S+) to ([a-z0-9-]+)'s ([a-z0-9.-]+)$")
  public void someoneAddsAFinalizer(String who, String finalizer, String namespace, String name) {
    answer = world().attempt(() -> world().addFinalizer(who(who), namespace, name, finalizer));
  }

  @When("^(a person|a CI bot|Helm) changes the data of ([a-z0-9-]+)'s ([a-z0-9.-]+)$")
  public void someoneChangesTheData(String who, String namespace, String name) {
    answer = world().attempt(() -> world().changeData(who(who), namespace, name));
  }

  @When("a person removes the owner references of {word}'s {word}")
  public void aPersonRemovesOwnerReferences(String namespace, String name) {
    answer = world().attempt(() -> world().removeOwnerReferences(KuikWorld.ADMIN, namespace, name));
  }

  @Then("the write must be refused saying {string}")
  public void theWriteIsRefused(String text) {
    assertFalse(answer.passed(), "the write passed");
    assertTrue(answer.message().contains(text), "refused with: " + answer.message());
    assertTrue(
        answer.message().contains("ValidatingAdmissionPolicy"),
        "the policy refused it: " + answer.message());
  }

  @Then("the write must have passed")
  public void theWritePassed() {
    assertTrue(answer.passed(), "refused: " + answer.message());
  }

  @Then("the request must be refused with {int} Forbidden")
  public void theRequestIsForbidden(int code) {
    assertEquals(code, answer.code(), answer.message());
  }

  @When("a person replaces every Secret of the cluster with kubectl replace")
  public void kubectlReplace() {
    replacedAt = world().now();
    replaced = world().cluster().kubectl().replaceAllSecrets();
  }

  @Then("every replace must have passed")
  public void everyReplacePassed() {
    assertFalse(replaced.isEmpty());
    assertEquals(List.of(), replaced.stream().filter(o -> !o.replaced()).toList());
    assertTrue(
        replaced.stream().anyMatch(o -> o.name().startsWith("kuik-inject-")),
        "the replace included the reserved Secrets");
  }

  @Then("the syncer must have sent no apply since the replace")
  public void noApplySinceTheReplace() {
    assertEquals(0, world().syncerAppliesSince(replacedAt));
  }

  @When("the {word} {word} is deleted with orphan propagation")
  public void deletedOrphaning(String kind, String name) {
    world().deleteResourceOrphaning(kind, name);
  }

  @Then("{word}'s {word} must have no owner reference")
  public void noOwnerReference(String namespace, String name) {
    JsonNode refs =
        world().secret(namespace, name).orElseThrow().path("metadata").path("ownerReferences");
    assertEquals(0, refs.size(), "owner references: " + refs);
  }

  @Given("a Velero backup named {word} of every Secret")
  public void aFullBackup(String name) {
    backups.put(name, world().cluster().velero().backup(name));
  }

  @Given("a Velero backup named {word} of every Secret except those labelled {word}={word}")
  public void anAdvisedBackup(String name, String key, String value) {
    backups.put(name, world().cluster().velero().backupExcluding(name, key, value));
  }

  @When("Velero restores the backup {word}")
  public void veleroRestores(String name) {
    restore = world().cluster().velero().restore(backups.get(name));
  }

  @Then("the restore must end PartiallyFailed with one error for {word}'s {word}")
  public void partiallyFailed(String namespace, String name) {
    assertEquals(Velero.Phase.PARTIALLY_FAILED, restore.phase(), restore.toString());
    List<String> errors = restore.allErrors();
    assertEquals(1, errors.size(), "errors: " + errors);
    assertTrue(errors.get(0).contains(namespace + "/" + name), errors.get(0));
  }

  @Then("the restore errors must say {string}")
  public void theRestoreErrorsSay(String text) {
    assertFalse(restore.allErrors().isEmpty(), "the restore reported no error: " + restore);
    assertTrue(
        restore.allErrors().stream().allMatch(e -> e.contains(text)),
        restore.allErrors().toString());
  }

  @Then("the restore must end Completed")
  public void completed() {
    assertEquals(Velero.Phase.COMPLETED, restore.phase(), restore.toString());
    assertEquals(List.of(), restore.allErrors());
  }

  @When("the admission policy cannot be evaluated")
  public void thePolicyFails() {
    world().cluster().policyFailure().fail(world().admissionPolicyName());
  }

  @When("the admission policy can be evaluated again")
  public void thePolicyHeals() {
    world().cluster().policyFailure().heal(world().admissionPolicyName());
  }

  @When("Helm installs the release {word} in {word}")
  public void helmInstalls(String release, String namespace) {
    answer = world().attempt(() -> world().cluster().helm().install(namespace, release));
  }

  @Then("the policy must have refused a write of the syncer")
  public void thePolicyRefusedTheSyncer() {
    assertFalse(world().syncerWritesRefusedByThePolicy().isEmpty(), "no syncer write was refused");
  }
}
