package io.kuik.sim;

import io.kuik.model.DockerConfig;
import io.kuik.model.RegistryCredential;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Manifest builders and small reads for the simulator's tests. */
public final class ManifestBuilders {

  private ManifestBuilders() {}

  public static ObjectNode namespace(String name) {
    return Json.yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + name + "}");
  }

  /** A pod with one container {@code app}, pulling {@code image} with these pull Secrets. */
  public static ObjectNode pod(String namespace, String name, String image, String... pullSecrets) {
    ObjectNode pod =
        Json.yaml(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: "
                + name
                + ", namespace: "
                + namespace
                + "}\nspec:\n  containers: [{name: app, image: \""
                + image
                + "\"}]");
    if (pullSecrets.length > 0) {
      ArrayNode refs = ((ObjectNode) pod.get("spec")).putArray("imagePullSecrets");
      for (String secret : pullSecrets) {
        refs.addObject().put("name", secret);
      }
    }
    return pod;
  }

  /** One user name and password per key, keys in the order given. */
  public static Map<String, RegistryCredential> auths(String... keyUserPassword) {
    Map<String, RegistryCredential> auths = new LinkedHashMap<>();
    for (int i = 0; i < keyUserPassword.length; i += 3) {
      auths.put(
          keyUserPassword[i],
          RegistryCredential.basic(keyUserPassword[i + 1], keyUserPassword[i + 2]));
    }
    return auths;
  }

  /** A {@code kubernetes.io/dockerconfigjson} Secret holding these auths. */
  public static ObjectNode pullSecret(
      String namespace, String name, Map<String, RegistryCredential> auths) {
    return dockerConfigSecret(namespace, name, new DockerConfig(auths).toJson());
  }

  /**
   * A Secret as the syncer writes it: {@code kubernetes.io/dockerconfigjson}, labelled {@code
   * app.kubernetes.io/managed-by: kuik-secret-syncer}.
   */
  public static ObjectNode injectedSecret(
      String namespace, String name, Map<String, RegistryCredential> auths) {
    ObjectNode secret = pullSecret(namespace, name, auths);
    ((ObjectNode) secret.get("metadata"))
        .putObject("labels")
        .put("app.kubernetes.io/managed-by", "kuik-secret-syncer");
    return secret;
  }

  public static ObjectNode dockerConfigSecret(String namespace, String name, String json) {
    ObjectNode secret =
        Json.yaml(
            "apiVersion: v1\nkind: Secret\nmetadata: {name: "
                + name
                + ", namespace: "
                + namespace
                + "}\ntype: kubernetes.io/dockerconfigjson");
    secret
        .putObject("data")
        .put(
            ".dockerconfigjson",
            Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)));
    return secret;
  }

  /** An Opaque Secret with one key. */
  public static ObjectNode opaqueSecret(String namespace, String name, String key, String value) {
    ObjectNode secret =
        Json.yaml(
            "apiVersion: v1\nkind: Secret\nmetadata: {name: "
                + name
                + ", namespace: "
                + namespace
                + "}\ntype: Opaque");
    secret
        .putObject("data")
        .put(key, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
    return secret;
  }

  /** The Events of a namespace with this reason, in name order (creation order per object). */
  public static List<ObjectNode> events(Cluster cluster, String namespace, String reason) {
    return cluster.api().list(Cluster.ADMIN, ResourceType.EVENT, namespace).items().stream()
        .filter(e -> reason.equals(e.path("reason").asString("")))
        .toList();
  }

  /** The waiting reason of the pod's first container as the API server stores it, or null. */
  public static String waitingReason(Cluster cluster, String namespace, String pod) {
    JsonNode state =
        cluster
            .api()
            .get(Cluster.ADMIN, ResourceType.POD, namespace, pod)
            .path("status")
            .path("containerStatuses")
            .path(0)
            .path("state");
    return state.path("waiting").isObject()
        ? state.path("waiting").path("reason").asString()
        : null;
  }
}
