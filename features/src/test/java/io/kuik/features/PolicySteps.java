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
import io.kuik.sim.dsl.Actions;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.world.api.Identity;
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
  private Actions.Answer answer;
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

  // Two wordings, two step definitions: an optional group that does not match makes Cucumber's
  // report print the step's text again.
  @When(
      "^the syncer's identity applies in ([a-z0-9-]+) a Secret ([a-z0-9.-]+) of type (\\S+) unlabelled$")
  public void theSyncersIdentityAppliesUnlabelled(String namespace, String name, String type) {
    syncerApplies(world().install().syncer().identity(), namespace, name, type, Map.of());
  }

  @When(
      "^the syncer's identity applies in ([a-z0-9-]+) a Secret ([a-z0-9.-]+) of type (\\S+) labelled ([^=\\s]+)=(\\S+)$")
  public void theSyncersIdentityApplies(
      String namespace, String name, String type, String key, String value) {
    syncerApplies(world().install().syncer().identity(), namespace, name, type, Map.of(key, value));
  }

  @When(
      "^the syncer's ServiceAccount with (a legacy token Secret|a token from kubectl create token) applies in ([a-z0-9-]+) a Secret ([a-z0-9.-]+) of type (\\S+) labelled ([^=\\s]+)=(\\S+)$")
  public void theSyncersUnboundTokenApplies(
      String token, String namespace, String name, String type, String key, String value) {
    syncerApplies(unbound(token), namespace, name, type, Map.of(key, value));
  }

  @When(
      "^the syncer's ServiceAccount with (a legacy token Secret|a token from kubectl create token) applies in ([a-z0-9-]+) a Secret ([a-z0-9.-]+) of type (\\S+) unlabelled$")
  public void theSyncersUnboundTokenAppliesUnlabelled(
      String token, String namespace, String name, String type) {
    syncerApplies(unbound(token), namespace, name, type, Map.of());
  }

  /** A token of the syncer's ServiceAccount bound to no pod, as the API server authenticates it. */
  private Identity unbound(String token) {
    return world().install().syncerAccountWithATokenBoundToNoPod(token.contains("kubectl"));
  }

  private void syncerApplies(
      Identity syncer, String namespace, String name, String type, Map<String, String> labels) {
    var secret = Actions.secretManifest(namespace, name, type, labels);
    answer = world().actions().applySecretAs(syncer, secret);
  }

  @Given("the ServiceAccount {word} in {word} may create and patch Secrets there")
  public void aTenantServiceAccount(String name, String namespace) {
    tenants.put(
        namespace + "/" + name, world().actions().serviceAccountThatWritesSecrets(namespace, name));
  }

  @Given("a kuik release is installed in the namespace {word}, listed by no other release")
  public void anUnlistedRelease(String namespace) {
    world().install().installUnlistedRelease(namespace);
  }

  @When(
      "^the ServiceAccount ([a-z0-9-]+) of ([a-z0-9-]+) applies in ([a-z0-9-]+) a Secret ([a-z0-9.-]+) of type (\\S+) labelled ([^=\\s]+)=(\\S+)$")
  public void aTenantApplies(
      String account,
      String accountNamespace,
      String namespace,
      String name,
      String type,
      String key,
      String value) {
    anotherIdentityApplies(
        tenants.get(accountNamespace + "/" + account), namespace, name, type, key, value);
  }

  @When(
      "^the syncer of the release in ([a-z0-9-]+) applies in ([a-z0-9-]+) a Secret ([a-z0-9.-]+) of type (\\S+) labelled ([^=\\s]+)=(\\S+)$")
  public void anotherReleasesSyncerApplies(
      String release, String namespace, String name, String type, String key, String value) {
    anotherIdentityApplies(
        world().install().syncerIdentityOf(release), namespace, name, type, key, value);
  }

  private void anotherIdentityApplies(
      Identity who, String namespace, String name, String type, String key, String value) {
    var secret = Actions.secretManifest(namespace, name, type, Map.of(key, value));
    answer = world().actions().applySecretAs(who, secret);
  }

  @When("the syncer's identity gets the Secret {word} in {word}")
  public void theSyncersIdentityGets(String name, String namespace) {
    Identity syncer = world().install().syncer().identity();
    answer = world().actions().getSecretAs(syncer, namespace, name);
  }

  @When("the syncer's identity deletes the Secret {word} in {word}")
  public void theSyncersIdentityDeletes(String name, String namespace) {
    Identity syncer = world().install().syncer().identity();
    state.deletesSentAsTheSyncer++;
    answer = world().actions().deleteSecretAs(syncer, namespace, name);
  }

  @Given("the API server enforces OwnerReferencesPermissionEnforcement")
  public void theApiServerEnforcesOwnerReferencesPermission() {
    world().install().enforceOwnerReferencesPermission();
  }

  @Given("kuik is upgraded with syncer.ownerReferencesPermissionEnforcement=true")
  public void kuikIsUpgradedWithOwnerReferencesPermission() {
    world().install().upgradeWithOwnerReferencesPermission();
  }

  @Then("the syncer's applies of {word} in {word} must have been refused saying {string}")
  public void theSyncersAppliesWereRefused(String name, String namespace, String text) {
    var refused =
        world().history().syncerApplies(namespace, name).stream()
            .filter(r -> !r.succeeded() && r.message() != null && r.message().contains(text))
            .toList();
    assertFalse(
        refused.isEmpty(),
        "no apply refused saying \""
            + text
            + "\": "
            + world().history().syncerApplies(namespace, name));
  }

  @When("the syncer's identity lists the Secrets of every namespace")
  public void theSyncersIdentityListsEverywhere() {
    Identity syncer = world().install().syncer().identity();
    answer = world().actions().listEverySecretAs(syncer);
  }

  @When("^(a person|a CI bot|Helm) creates in ([a-z0-9-]+) a Secret ([a-z0-9.-]+) of type (\\S+)$")
  public void someoneCreates(String who, String namespace, String name, String type) {
    var secret = Actions.secretManifest(namespace, name, type, Map.of());
    answer = world().actions().createAs(who(who), secret);
  }

  @When(
      "^(a person|a CI bot|Helm) creates in ([a-z0-9-]+) a Secret named from generateName ([a-z0-9.-]+) of type (\\S+)$")
  public void someoneCreatesWithGenerateName(
      String who, String namespace, String prefix, String type) {
    var secret = Actions.secretManifest(namespace, "unused", type, Map.of());
    var metadata = (tools.jackson.databind.node.ObjectNode) secret.get("metadata");
    metadata.remove("name");
    metadata.put("generateName", prefix);
    answer = world().actions().createAs(who(who), secret);
  }

  @When("^(a person|a CI bot|Helm) adds the finalizer (\\S+) to ([a-z0-9-]+)'s ([a-z0-9.-]+)$")
  public void someoneAddsAFinalizer(String who, String finalizer, String namespace, String name) {
    answer =
        world()
            .actions()
            .attempt(() -> world().actions().addFinalizer(who(who), namespace, name, finalizer));
  }

  @When("^(a person|a CI bot|Helm) changes the data of ([a-z0-9-]+)'s ([a-z0-9.-]+)$")
  public void someoneChangesTheData(String who, String namespace, String name) {
    answer =
        world().actions().attempt(() -> world().actions().changeData(who(who), namespace, name));
  }

  @When("a person removes the owner references of {word}'s {word}")
  public void aPersonRemovesOwnerReferences(String namespace, String name) {
    answer =
        world()
            .actions()
            .attempt(
                () -> world().actions().removeOwnerReferences(KuikWorld.ADMIN, namespace, name));
  }

  @When("^(the syncer's|the webhook's) identity patches the pod ([a-z0-9-]+) in ([a-z0-9-]+):$")
  public void kuikPatchesAPod(String who, String pod, String namespace, String jsonPatch) {
    var identity =
        who.startsWith("the syncer")
            ? world().install().syncer().identity()
            : world().install().webhookIdentity();
    answer = world().actions().patchPodAs(identity, namespace, pod, jsonPatch);
  }

  @When("a person patches the pod {word} in {word}:")
  public void aPersonPatchesAPod(String pod, String namespace, String jsonPatch) {
    answer = world().actions().patchPodAs(KuikWorld.ADMIN, namespace, pod, jsonPatch);
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
    replaced = world().actions().kubectlReplaceAllSecrets();
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
    assertEquals(0, world().history().syncerAppliesSince(replacedAt));
  }

  @When("the {word} {word} is deleted with orphan propagation")
  public void deletedOrphaning(String kind, String name) {
    world().objects().deleteResourceOrphaning(kind, name);
  }

  @Then("{word}'s {word} must have no owner reference")
  public void noOwnerReference(String namespace, String name) {
    JsonNode refs =
        world()
            .views()
            .secret(namespace, name)
            .orElseThrow()
            .path("metadata")
            .path("ownerReferences");
    assertEquals(0, refs.size(), "owner references: " + refs);
  }

  @Given("a Velero backup named {word} of every Secret")
  public void aFullBackup(String name) {
    backups.put(name, world().actions().veleroBackup(name));
  }

  @Given("a Velero backup named {word} of every Secret except those labelled {word}={word}")
  public void anAdvisedBackup(String name, String key, String value) {
    backups.put(name, world().actions().veleroBackupExcluding(name, key, value));
  }

  @When("Velero restores the backup {word}")
  public void veleroRestores(String name) {
    restore = world().actions().veleroRestore(backups.get(name));
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
    world().faults().policyFails();
  }

  @When("the admission policy can be evaluated again")
  public void thePolicyHeals() {
    world().faults().policyHeals();
  }

  @When("Helm installs the release {word} in {word}")
  public void helmInstalls(String release, String namespace) {
    answer = world().actions().attempt(() -> world().actions().helmInstall(namespace, release));
  }

  @Then("the policy must have refused a write of the syncer")
  public void thePolicyRefusedTheSyncer() {
    assertFalse(
        world().history().syncerWritesRefusedByThePolicy().isEmpty(),
        "no syncer write was refused");
  }
}
