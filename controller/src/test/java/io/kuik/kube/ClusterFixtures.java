package io.kuik.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.model.crd.ImageAlternative;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Objects the integration tests create, in the shapes kuik and Kubernetes give them (public for the
 * image tests, which run the syncer from the image against the same mock API server).
 */
public final class ClusterFixtures {

  public static final String INSTALL_NAMESPACE = "kuik-system";
  public static final String SOURCE_SECRET = "acme-pull";
  public static final String REPOSITORY = "registry.example.com/acme/app";
  public static final String INJECTED = "kuik-inject-imagealternative-acme";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final KubernetesClient client;

  public ClusterFixtures(KubernetesClient client) {
    this.client = client;
  }

  public void namespace(String name, Map<String, String> labels) {
    Namespace namespace =
        new NamespaceBuilder()
            .withNewMetadata()
            .withName(name)
            .withLabels(labels)
            .endMetadata()
            .build();
    put(namespace);
  }

  /** The secretRef Secret in the install namespace, with one credential for the registry. */
  public void sourceSecret(String user) {
    String auth = base64(user + ":password-of-" + user);
    String config =
        "{\"auths\":{\"registry.example.com\":{\"username\":\""
            + user
            + "\",\"password\":\"password-of-"
            + user
            + "\",\"auth\":\""
            + auth
            + "\"}}}";
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName(SOURCE_SECRET)
            .withNamespace(INSTALL_NAMESPACE)
            .endMetadata()
            .withType("kubernetes.io/dockerconfigjson")
            .withData(Map.of(".dockerconfigjson", base64(config)))
            .build();
    put(secret);
  }

  /**
   * A secretRef source {@code name} in the install namespace whose {@code .dockerconfigjson} has
   * one entry, {@code registryPath}, with the JSON fields {@code entry} (e.g. {@code "auth":"…"}).
   */
  public void dockerConfigSource(String name, String registryPath, String entry) {
    String config = "{\"auths\":{\"" + registryPath + "\":{" + entry + "}}}";
    put(
        new SecretBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(INSTALL_NAMESPACE)
            .endMetadata()
            .withType("kubernetes.io/dockerconfigjson")
            .withData(Map.of(".dockerconfigjson", base64(config)))
            .build());
  }

  /** An ImageAlternative {@code name} with one injecting alternative, its auth {@code secret}. */
  public void injectingAlternative(String name, String repository, String secret) {
    String yaml =
        String.join(
            "\n",
            "apiVersion: kuik.enix.io/v1alpha1",
            "kind: ImageAlternative",
            "metadata:",
            "  name: " + name,
            "spec:",
            "  alternatives:",
            "  - repository: " + repository,
            "    auth:",
            "      secretRef: {name: " + secret + "}",
            "");
    put(client.getKubernetesSerialization().unmarshal(yaml, ImageAlternative.class));
  }

  /** ImageAlternative "acme": one injecting alternative, with the given policy and namespaces. */
  public void imageAlternative(String rewritePolicy, String namespaceSelectorYaml) {
    String yaml =
        String.join(
            "\n",
            "apiVersion: kuik.enix.io/v1alpha1",
            "kind: ImageAlternative",
            "metadata:",
            "  name: acme",
            "spec:",
            "  rewritePolicy: " + rewritePolicy,
            "  namespaceSelector: " + namespaceSelectorYaml,
            "  alternatives:",
            "  - repository: " + REPOSITORY,
            "    auth:",
            "      secretRef: {name: " + SOURCE_SECRET + "}",
            "");
    put(client.getKubernetesSerialization().unmarshal(yaml, ImageAlternative.class));
  }

  /** A pod the webhook rewrote to the alternative for ImageAlternative "acme". */
  public void rewrittenPod(String namespace, String name) {
    put(rewritten(namespace, name));
  }

  private static Pod rewritten(String namespace, String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .withLabels(Map.of("kuik.enix.io/images-rewritten", "true"))
        .withAnnotations(
            Map.of(
                "kuik.enix.io/rewritten-by", "{\"app\":\"ImageAlternative/acme\"}",
                "kuik.enix.io/original-images", "{\"app\":\"docker.io/acme/app:1.0\"}"))
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("app")
        .withImage(REPOSITORY + ":1.0")
        .endContainer()
        .addNewImagePullSecret(INJECTED)
        .endSpec()
        .withNewStatus()
        .withPhase("Pending")
        .endStatus()
        .build();
  }

  /**
   * {@link #rewrittenPod} as the webhook leaves it with pull secret first: gated by {@code
   * kuik.enix.io/pull-secret} after a gate of someone else's, created at {@code created}.
   */
  public void gatedRewrittenPod(String namespace, String name, java.time.Instant created) {
    Pod pod = rewritten(namespace, name);
    pod.getMetadata().setCreationTimestamp(created.toString());
    pod.getSpec()
        .setSchedulingGates(
            java.util.List.of(
                new io.fabric8.kubernetes.api.model.PodSchedulingGate("example.com/quota"),
                new io.fabric8.kubernetes.api.model.PodSchedulingGate("kuik.enix.io/pull-secret")));
    client.resource(pod).create();
  }

  /** The names of the pod's scheduling gates. */
  public java.util.List<String> gates(String namespace, String name) {
    Pod pod = client.pods().inNamespace(namespace).withName(name).get();
    return pod.getSpec().getSchedulingGates().stream()
        .map(io.fabric8.kubernetes.api.model.PodSchedulingGate::getName)
        .toList();
  }

  /** The auths of the injected Secret in {@code namespace} (user names only), or null. */
  public Map<String, String> injectedUsers(String namespace) {
    Secret secret = client.secrets().inNamespace(namespace).withName(INJECTED).get();
    if (secret == null) {
      return null;
    }
    String config =
        new String(
            Base64.getDecoder().decode(secret.getData().get(".dockerconfigjson")),
            StandardCharsets.UTF_8);
    Map<String, String> users = new TreeMap<>();
    JsonNode auths = JSON.readTree(config).get("auths");
    auths
        .properties()
        .forEach(e -> users.put(e.getKey(), e.getValue().path("username").asString("")));
    return users;
  }

  private void put(HasMetadata object) {
    client.resource(object).createOr(existing -> existing.update());
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
