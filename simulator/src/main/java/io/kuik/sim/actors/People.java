package io.kuik.sim.actors;

import io.kuik.model.DockerConfig;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * A person at a terminal with kubectl, by default {@code alice} in the group {@code
 * system:masters}: she labels namespaces, creates, edits and deletes Secrets, and deletes anything.
 * Every method is one kubectl command, sends what that command sends (a merge patch for {@code
 * label} and {@code edit}), and throws the {@link io.kuik.sim.world.ApiException} kubectl would
 * print when the API server refuses it.
 */
public final class People {

  public static final Identity ALICE = Identity.person("alice", "system:masters");

  private final ApiServer api;
  private final Identity identity;

  /** Alice. */
  public People(ApiServer api) {
    this(api, ALICE);
  }

  public People(ApiServer api, Identity identity) {
    this.api = Objects.requireNonNull(api, "api");
    this.identity = Objects.requireNonNull(identity, "identity");
  }

  public Identity identity() {
    return identity;
  }

  /** {@code kubectl create namespace}, then one label per {@code key=value}. */
  public ObjectNode createNamespace(String name, String... labels) {
    ObjectNode namespace = Json.object();
    namespace.put("apiVersion", "v1");
    namespace.put("kind", "Namespace");
    ObjectNode meta = namespace.putObject("metadata");
    meta.put("name", name);
    ObjectNode map = meta.putObject("labels");
    for (String label : labels) {
      int eq = label.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("expected key=value, got " + label);
      }
      map.put(label.substring(0, eq), label.substring(eq + 1));
    }
    return api.create(identity, namespace, "kubectl-create");
  }

  /** {@code kubectl label namespace <ns> key=value --overwrite}. */
  public ObjectNode labelNamespace(String namespace, String key, String value) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putObject("labels").put(key, value);
    return api.mergePatch(
        identity, ResourceType.NAMESPACE, null, namespace, patch, "kubectl-label");
  }

  /** {@code kubectl label namespace <ns> key-}. */
  public ObjectNode unlabelNamespace(String namespace, String key) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putObject("labels").putNull(key);
    return api.mergePatch(
        identity, ResourceType.NAMESPACE, null, namespace, patch, "kubectl-label");
  }

  /** {@code kubectl create -f}: any object. */
  public ObjectNode create(ObjectNode object) {
    return api.create(identity, object, "kubectl-create");
  }

  /** {@code kubectl create secret docker-registry}, from a whole config. */
  public ObjectNode createPullSecret(String namespace, String name, DockerConfig config) {
    ObjectNode secret = Json.object();
    secret.put("apiVersion", "v1");
    secret.put("kind", "Secret");
    ObjectNode meta = secret.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    secret.put("type", "kubernetes.io/dockerconfigjson");
    secret
        .putObject("data")
        .put(
            ".dockerconfigjson",
            Base64.getEncoder().encodeToString(config.toJson().getBytes(StandardCharsets.UTF_8)));
    return create(secret);
  }

  public ObjectNode get(ResourceType type, String namespace, String name) {
    return api.get(identity, type, namespace, name);
  }

  /**
   * {@code kubectl edit secret}: reads the Secret, lets {@code change} edit a copy, and sends the
   * difference as a patch (nothing when nothing changed).
   */
  public ObjectNode editSecret(String namespace, String name, Consumer<ObjectNode> change) {
    ObjectNode before = get(ResourceType.SECRET, namespace, name);
    ObjectNode after = before.deepCopy();
    change.accept(after);
    ObjectNode patch = MergePatches.diff(before, after);
    if (patch.isEmpty()) {
      return before;
    }
    return api.mergePatch(identity, ResourceType.SECRET, namespace, name, patch, "kubectl-edit");
  }

  public ObjectNode deleteSecret(String namespace, String name) {
    return delete(ResourceType.SECRET, namespace, name);
  }

  /** {@code kubectl delete}, with the default background propagation. */
  public ObjectNode delete(ResourceType type, String namespace, String name) {
    return api.delete(identity, type, namespace, name);
  }
}
