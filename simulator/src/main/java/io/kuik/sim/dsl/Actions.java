package io.kuik.sim.dsl;

import static io.kuik.sim.dsl.KuikWorld.ADMIN;

import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.sim.actors.KubectlReplace;
import io.kuik.sim.actors.Velero;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.registry.Registry;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The DSL's registries and people's actions: what the registries hold and to whom they serve it;
 * {@code kubectl replace}, Velero's backups and restores, {@code helm install}; and writes and
 * reads by an identity of the story's choosing (a person, a CI bot, the syncer's own
 * ServiceAccount, a tenant's ServiceAccount), for the admission policy's and RBAC's stories.
 */
public final class Actions {

  /** The field manager the syncer applies with, which another identity may borrow. */
  private static final String SYNCER_FIELD_MANAGER = "kuik-secret-syncer";

  private final KuikWorld world;

  Actions(KuikWorld world) {
    this.world = world;
  }

  // ---- registries -----------------------------------------------------------------------------

  /** The registry holds these images and serves them only to this credential. */
  public void registryServes(String host, List<String> images, String username, String password) {
    Registry registry = world.cluster().registries().registry(host);
    for (String image : images) {
      ImageReference reference = parseImage(image);
      if (!reference.registry().equals(host)) {
        throw new IllegalArgumentException(image + " is not on " + host);
      }
      registry.push(reference.path(), reference.tag());
      registry.requireCredential(reference.path(), username, password);
    }
  }

  /** The registry refuses this credential from now on (a rotation's old password). */
  public void registryRevokes(String host, String username, String password) {
    world.cluster().registries().registry(host).revokeCredential(username, password);
  }

  /** The registry's refusals quote the credential they were sent (a hostile registry). */
  public void registryEchoesWhatItRefuses(String host) {
    world.cluster().registries().registry(host).echoWhatItRefuses();
  }

  /** The registry holds these images and serves them to anyone. */
  public void registryServesAnonymously(String host, List<String> images) {
    Registry registry = world.cluster().registries().registry(host);
    for (String image : images) {
      ImageReference reference = parseImage(image);
      registry.push(reference.path(), reference.tag());
    }
  }

  // ---- people's tools ---------------------------------------------------------------------------

  /** {@code kubectl replace} of every Secret of the cluster, as an administrator. */
  public List<KubectlReplace.Outcome> kubectlReplaceAllSecrets() {
    return world.cluster().kubectl().replaceAllSecrets();
  }

  /** A Velero backup of every Secret. */
  public Velero.Backup veleroBackup(String name) {
    return world.cluster().velero().backup(name);
  }

  /** A Velero backup of every Secret except those labelled {@code key=value}. */
  public Velero.Backup veleroBackupExcluding(String name, String key, String value) {
    return world.cluster().velero().backupExcluding(name, key, value);
  }

  public Velero.RestoreResult veleroRestore(Velero.Backup backup) {
    return world.cluster().velero().restore(backup);
  }

  /** {@code helm install} of a release in {@code namespace}: its release Secret. */
  public ObjectNode helmInstall(String namespace, String release) {
    return world.cluster().helm().install(namespace, release);
  }

  // ---- requests as an identity of the story's choosing ---------------------------------------

  /** A request's answer: 2xx, or the API server's refusal. */
  public record Answer(int code, String message) {
    public boolean passed() {
      return code < 400;
    }
  }

  /** Runs a request and captures the API server's answer instead of throwing. */
  public Answer attempt(Runnable request) {
    try {
      request.run();
      return new Answer(200, "");
    } catch (ApiException refused) {
      return new Answer(refused.code(), refused.getMessage());
    }
  }

  /** {@code who} applies this Secret as the syncer does: its field manager, forcing conflicts. */
  public Answer applySecretAs(Identity who, ObjectNode secret) {
    return attempt(() -> world.api().apply(who, secret, SYNCER_FIELD_MANAGER, true));
  }

  /** A JSON Patch (RFC 6902, as JSON text) of the pod {@code namespace/pod} as {@code who}. */
  public Answer patchPodAs(Identity who, String namespace, String pod, String jsonPatch) {
    return attempt(
        () ->
            world
                .api()
                .jsonPatch(
                    who,
                    ResourceType.POD,
                    namespace,
                    pod,
                    Json.MAPPER.readTree(jsonPatch),
                    "kubectl-patch"));
  }

  public Answer createAs(Identity who, ObjectNode manifest) {
    return attempt(() -> world.api().create(who, manifest));
  }

  public Answer getSecretAs(Identity who, String namespace, String name) {
    return attempt(() -> world.api().get(who, ResourceType.SECRET, namespace, name));
  }

  public Answer deleteSecretAs(Identity who, String namespace, String name) {
    return attempt(() -> world.api().delete(who, ResourceType.SECRET, namespace, name));
  }

  /** A list of the Secrets of every namespace. */
  public Answer listEverySecretAs(Identity who) {
    return attempt(() -> world.api().list(who, ResourceType.SECRET, null));
  }

  /** A docker-registry-shaped Secret manifest of any type, optionally with the managed-by label. */
  public static ObjectNode secretManifest(
      String namespace, String name, String type, Map<String, String> labels) {
    ObjectNode secret =
        ClusterObjects.secretObject(
            namespace, name, type, Map.of(".dockerconfigjson", "{\"auths\":{}}"));
    if (!labels.isEmpty()) {
      labels.forEach(((ObjectNode) secret.get("metadata")).putObject("labels")::put);
    }
    return secret;
  }

  /** Takes away the owner references of a Secret, as a person editing it would. */
  public void removeOwnerReferences(Identity who, String namespace, String name) {
    ObjectNode live = world.views().secret(namespace, name).orElseThrow();
    ((ObjectNode) live.get("metadata")).remove("ownerReferences");
    world.api().update(who, live);
  }

  /** Adds a finalizer to a Secret as {@code who}, as {@code kubectl patch} or an operator would. */
  public void addFinalizer(Identity who, String namespace, String name, String finalizer) {
    ObjectNode live = world.views().secret(namespace, name).orElseThrow();
    ObjectNode meta = (ObjectNode) live.get("metadata");
    ArrayNode finalizers =
        meta.has("finalizers") ? (ArrayNode) meta.get("finalizers") : meta.putArray("finalizers");
    finalizers.add(finalizer);
    world.api().update(who, live);
  }

  /** Changes one byte of a Secret's data as {@code who}, keeping everything else. */
  public void changeData(Identity who, String namespace, String name) {
    ObjectNode live = world.views().secret(namespace, name).orElseThrow();
    ((ObjectNode) live.get("data"))
        .put(
            ".dockerconfigjson",
            Base64.getEncoder()
                .encodeToString(
                    "{\"auths\":{\"evil.example\":{}}}".getBytes(StandardCharsets.UTF_8)));
    world.api().update(who, live);
  }

  /**
   * A tenant's own ServiceAccount {@code name} in {@code namespace}, with a Role and RoleBinding
   * that let it create and patch Secrets there, as a namespace admin may set up.
   */
  public Identity serviceAccountThatWritesSecrets(String namespace, String name) {
    ObjectNode account = Json.object();
    account.put("apiVersion", "v1");
    account.put("kind", "ServiceAccount");
    account.putObject("metadata").put("name", name).put("namespace", namespace);
    world.api().create(ADMIN, account);
    ObjectNode role = Json.object();
    role.put("apiVersion", "rbac.authorization.k8s.io/v1");
    role.put("kind", "Role");
    role.putObject("metadata").put("name", name + "-secrets").put("namespace", namespace);
    ObjectNode rule = role.putArray("rules").addObject();
    rule.putArray("apiGroups").add("");
    rule.putArray("resources").add("secrets");
    rule.putArray("verbs").add("create").add("patch").add("get");
    world.api().create(ADMIN, role);
    ObjectNode binding = Json.object();
    binding.put("apiVersion", "rbac.authorization.k8s.io/v1");
    binding.put("kind", "RoleBinding");
    binding.putObject("metadata").put("name", name + "-secrets").put("namespace", namespace);
    binding
        .putObject("roleRef")
        .put("apiGroup", "rbac.authorization.k8s.io")
        .put("kind", "Role")
        .put("name", name + "-secrets");
    binding
        .putArray("subjects")
        .addObject()
        .put("kind", "ServiceAccount")
        .put("name", name)
        .put("namespace", namespace);
    world.api().create(ADMIN, binding);
    return Identity.serviceAccount(namespace, name);
  }

  private static ImageReference parseImage(String image) {
    try {
      return ImageReference.parse(image);
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
