package io.kuik.sim.dsl;

import static io.kuik.sim.dsl.KuikWorld.ADMIN;

import io.kuik.model.RegistryCredential;
import io.kuik.sim.world.DeleteOptions;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The DSL's cluster setup, part two: the objects an administrator writes with kubectl, namespaces,
 * Secrets and kuik's routing resources, or any manifest. Every write is a request as {@link
 * KuikWorld#ADMIN}; refusals are thrown as the API server's {@code ApiException}.
 */
public final class ClusterObjects {

  private final KuikWorld world;

  ClusterObjects(KuikWorld world) {
    this.world = world;
  }

  /** {@code kubectl create -f} of one manifest as the administrator; refusals are thrown. */
  public ObjectNode create(ObjectNode manifest) {
    return world.api().create(ADMIN, manifest);
  }

  // ---- namespaces -----------------------------------------------------------------------------

  public void createNamespace(String name, Map<String, String> labels) {
    ObjectNode ns = Json.object();
    ns.put("apiVersion", "v1");
    ns.put("kind", "Namespace");
    ObjectNode meta = ns.putObject("metadata");
    meta.put("name", name);
    labels.forEach(meta.putObject("labels")::put);
    world.api().create(ADMIN, ns);
  }

  public void labelNamespace(String name, String key, String value) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putObject("labels").put(key, value);
    world.api().mergePatch(ADMIN, ResourceType.NAMESPACE, null, name, patch, "kubectl-label");
  }

  /** A finalizer that nobody removes keeps the namespace in Terminating once it is deleted. */
  public void holdNamespaceInTerminating(String name) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putArray("finalizers").add("example.com/hold");
    world.api().mergePatch(ADMIN, ResourceType.NAMESPACE, null, name, patch, "kubectl-patch");
  }

  public void deleteNamespace(String name) {
    world.api().delete(ADMIN, ResourceType.NAMESPACE, null, name);
  }

  // ---- Secrets ---------------------------------------------------------------------------------

  /**
   * Creates or replaces a docker-registry Secret holding these credentials by registry path, keys
   * in the map's order (as a person's file lists them; the order is what a "last key wins" bug
   * would depend on), each with {@code username}, {@code password} and {@code auth} as {@code
   * kubectl create secret docker-registry} writes them.
   */
  public void dockerRegistrySecret(
      String namespace, String name, Map<String, RegistryCredential> auths) {
    ObjectNode document = Json.object();
    ObjectNode entries = document.putObject("auths");
    auths.forEach(
        (key, credential) -> {
          ObjectNode entry = entries.putObject(key);
          putIfSet(entry, "username", credential.username());
          putIfSet(entry, "password", credential.password());
          putIfSet(entry, "identitytoken", credential.identityToken());
          putIfSet(entry, "registrytoken", credential.registryToken());
          if (credential.username() != null && credential.password() != null) {
            String pair = credential.username() + ":" + credential.password();
            entry.put(
                "auth", Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
          }
        });
    putSecret(
        namespace,
        name,
        "kubernetes.io/dockerconfigjson",
        Map.of(".dockerconfigjson", Json.write(document)));
  }

  private static void putIfSet(ObjectNode entry, String field, String value) {
    if (value != null) {
      entry.put(field, value);
    }
  }

  /** A docker-registry Secret whose .dockerconfigjson is this text exactly. */
  public void dockerConfigSecret(String namespace, String name, String dockerConfigJson) {
    putSecret(
        namespace,
        name,
        "kubernetes.io/dockerconfigjson",
        Map.of(".dockerconfigjson", dockerConfigJson));
  }

  /** A legacy {@code kubernetes.io/dockercfg} Secret whose .dockercfg is this text exactly. */
  public void legacyDockercfgSecret(String namespace, String name, String dockercfg) {
    putSecret(namespace, name, "kubernetes.io/dockercfg", Map.of(".dockercfg", dockercfg));
  }

  public void opaqueSecret(String namespace, String name, Map<String, String> data) {
    putSecret(namespace, name, "Opaque", data);
  }

  public void annotateSecret(String namespace, String name, String key, String value) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putObject("annotations").put(key, value);
    world.api().mergePatch(ADMIN, ResourceType.SECRET, namespace, name, patch, "kubectl-annotate");
  }

  public void deleteSecret(String namespace, String name) {
    world.api().delete(ADMIN, ResourceType.SECRET, namespace, name);
  }

  /**
   * Creates an immutable Secret under a reserved name as if before kuik's admission policy existed:
   * the policy's binding is taken away for the write and put back after it.
   */
  public void immutableSecretBeforeThePolicy(
      String namespace, String name, String dockerConfigJson) {
    String binding = world.install().requireInstalled().name() + "-pull-secrets";
    ObjectNode stored =
        world.api().get(ADMIN, ResourceType.VALIDATING_ADMISSION_POLICY_BINDING, null, binding);
    world.api().delete(ADMIN, ResourceType.VALIDATING_ADMISSION_POLICY_BINDING, null, binding);
    ObjectNode secret =
        secretObject(
            namespace,
            name,
            "kubernetes.io/dockerconfigjson",
            Map.of(".dockerconfigjson", dockerConfigJson));
    secret.put("immutable", true);
    world.api().create(ADMIN, secret);
    world.api().create(ADMIN, withoutServerFields(stored));
  }

  // ---- routing resources ----------------------------------------------------------------------

  public void createResource(String kind, String name, String specYaml) {
    world.api().create(ADMIN, resourceObject(kind, name, specYaml));
  }

  /**
   * Creates the resource as a cluster would have stored it when its CRD had no schema: the CRD is
   * replaced by one that accepts any object (as an older kuik release's could have been, or a CRD
   * applied by hand), the resource created, and the chart's CRD put back. The API server does not
   * validate stored objects again when a CRD changes, so the resource stays, as it is, until it is
   * written again; the controllers read it as it is.
   */
  public void createResourceWithoutTheCrdSchema(String kind, String name, String specYaml) {
    ResourceType type = typeOf(kind);
    String crdName = type.resource() + "." + type.group();
    ObjectNode crd = world.api().get(ADMIN, ResourceType.CUSTOM_RESOURCE_DEFINITION, null, crdName);
    JsonNode chartSpec = crd.get("spec").deepCopy();
    for (var version : crd.path("spec").path("versions")) {
      ((ObjectNode) version)
          .putObject("schema")
          .set(
              "openAPIV3Schema",
              Json.yaml("{type: object, x-kubernetes-preserve-unknown-fields: true}"));
    }
    world.api().update(ADMIN, crd);
    try {
      createResource(kind, name, specYaml);
    } finally {
      ObjectNode live =
          world.api().get(ADMIN, ResourceType.CUSTOM_RESOURCE_DEFINITION, null, crdName);
      live.set("spec", chartSpec);
      world.api().update(ADMIN, live);
    }
  }

  public void changeResource(String kind, String name, String specYaml) {
    ObjectNode live = world.api().get(ADMIN, typeOf(kind), null, name);
    ObjectNode changed = resourceObject(kind, name, specYaml);
    changed.set("metadata", live.get("metadata"));
    world.api().update(ADMIN, changed);
  }

  public void deleteResource(String kind, String name) {
    world.api().delete(ADMIN, typeOf(kind), null, name);
  }

  public void deleteResourceOrphaning(String kind, String name) {
    world.api().delete(ADMIN, typeOf(kind), null, name, DeleteOptions.orphan());
  }

  /** {@code kubectl delete --cascade=foreground}. */
  public void deleteResourceInTheForeground(String kind, String name) {
    world.api().delete(ADMIN, typeOf(kind), null, name, DeleteOptions.foreground());
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /** The type of a routing kind, ImageAlternative or ImageMirror. */
  /**
   * {@code kubectl delete <kind> [-n namespace] <name>} as the administrator, for any kind the
   * cluster serves ({@code ValidatingAdmissionPolicy}, {@code Deployment}...); a namespace is
   * ignored for a cluster-scoped kind.
   */
  public void delete(String kind, String namespace, String name) {
    world.api().delete(ADMIN, anyTypeOf(kind), namespace, name);
  }

  /** The resource type of a kind, any the simulated API server serves. */
  static ResourceType anyTypeOf(String kind) {
    return ResourceType.ALL.stream()
        .filter(t -> t.kind().equals(kind))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no kind " + kind + " is served"));
  }

  static ResourceType typeOf(String kind) {
    if (kind.equals("ImageAlternative")) {
      return ResourceType.IMAGE_ALTERNATIVE;
    }
    if (kind.equals("ImageMirror")) {
      return ResourceType.IMAGE_MIRROR;
    }
    throw new IllegalArgumentException("not a routing kind: " + kind);
  }

  /** A Secret of this type whose data are these texts, base64-encoded in the map's order. */
  static ObjectNode secretObject(
      String namespace, String name, String type, Map<String, String> data) {
    ObjectNode secret = Json.object();
    secret.put("apiVersion", "v1");
    secret.put("kind", "Secret");
    ObjectNode meta = secret.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    secret.put("type", type);
    ObjectNode encoded = secret.putObject("data");
    new LinkedHashMap<>(data)
        .forEach(
            (k, v) ->
                encoded.put(
                    k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
    return secret;
  }

  private void putSecret(String namespace, String name, String type, Map<String, String> data) {
    ObjectNode secret = secretObject(namespace, name, type, data);
    Optional<ObjectNode> live = world.views().secret(namespace, name);
    if (live.isPresent()) {
      secret.set("metadata", live.get().get("metadata"));
      world.api().update(ADMIN, secret);
    } else {
      world.api().create(ADMIN, secret);
    }
  }

  private static ObjectNode resourceObject(String kind, String name, String specYaml) {
    ObjectNode body = Json.yaml(specYaml);
    ObjectNode object = Json.object();
    object.put("apiVersion", "kuik.enix.io/v1alpha1");
    object.put("kind", kind);
    object.putObject("metadata").put("name", name);
    if (body.has("spec")) {
      object.set("spec", body.get("spec"));
    }
    return object;
  }

  private static ObjectNode withoutServerFields(ObjectNode stored) {
    ObjectNode copy = stored.deepCopy();
    ObjectNode meta = (ObjectNode) copy.get("metadata");
    for (String field :
        List.of("uid", "resourceVersion", "creationTimestamp", "managedFields", "generation")) {
      meta.remove(field);
    }
    return copy;
  }
}
