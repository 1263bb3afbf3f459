package io.kuik.explain;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.explain.Explanation.Offer;
import io.kuik.model.DockerConfig;
import io.kuik.model.Entry;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidDockerConfigException;
import io.kuik.model.RegistryCredential;
import io.kuik.model.RoutingResource;
import io.kuik.model.SecretNames;
import io.kuik.model.Validated;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The keys the kubelet is offered for a pod: every key of every pull Secret the pod lists, in the
 * pod's order, and where each came from (the Secret as read, or as the syncer writes it now).
 */
final class PullSecretKeys {

  private static final String DOCKER_CONFIG_JSON = "kubernetes.io/dockerconfigjson";

  private PullSecretKeys() {}

  static List<String> references(Pod pod, List<String> added) {
    List<String> names = new ArrayList<>();
    if (pod.getSpec().getImagePullSecrets() != null) {
      for (LocalObjectReference ref : pod.getSpec().getImagePullSecrets()) {
        if (ref != null && ref.getName() != null) {
          names.add(ref.getName());
        }
      }
    }
    for (String name : added) {
      if (!names.contains(name)) {
        names.add(name);
      }
    }
    return names;
  }

  /**
   * Every key of every pull Secret the pod lists, in the pod's order: a Secret read is taken as it
   * is; a kuik Secret that could not be read is taken as the syncer writes it now.
   */
  static List<KubeletKeyring.Key> keyring(
      ExplainInputs in,
      List<String> references,
      SyncerNow.Result syncer,
      String instance,
      List<String> warnings) {
    List<KubeletKeyring.Key> keys = new ArrayList<>();
    for (String name : references) {
      Secret read = in.pullSecrets().get(name);
      Optional<DockerConfig> config;
      if (read != null) {
        config = readable(read, in.namespace() + "/" + name, warnings);
      } else if (name.startsWith(SecretNames.INJECT_PREFIX)) {
        config = Optional.ofNullable(syncer.secrets().get(name));
        if (config.isEmpty()) {
          warnings.add(
              "the pod lists "
                  + name
                  + ", but the syncer of "
                  + instance
                  + " writes no such Secret in "
                  + in.namespace()
                  + " now");
        }
      } else {
        config = Optional.empty();
      }
      config.ifPresent(
          c ->
              c.auths()
                  .forEach(
                      (key, credential) ->
                          keys.add(new KubeletKeyring.Key(name, key, credential))));
    }
    return keys;
  }

  private static Optional<DockerConfig> readable(
      Secret secret, String where, List<String> warnings) {
    if (!DOCKER_CONFIG_JSON.equals(secret.getType())) {
      return Optional.empty(); // the kubelet ignores Secrets of other types
    }
    String encoded = secret.getData() == null ? null : secret.getData().get(".dockerconfigjson");
    if (encoded == null || encoded.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          DockerConfig.parse(
              new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8)));
    } catch (InvalidDockerConfigException | IllegalArgumentException e) {
      warnings.add(
          "pull Secret "
              + where
              + " does not decode, so every pull of this pod fails: "
              + e.getMessage());
      return Optional.empty();
    }
  }

  static List<Offer> offers(
      List<KubeletKeyring.Key> offered, ImageReference image, ExplainInputs in) {
    List<Offer> out = new ArrayList<>();
    for (KubeletKeyring.Key key : offered) {
      boolean read = in.pullSecrets().containsKey(key.secret());
      Optional<RoutingResource> owner = owner(in.resources(), key.secret());
      Optional<Entry> entry =
          owner.flatMap(
              r -> r.entries().stream().filter(e -> e.authsKey().equals(key.key())).findFirst());
      String writtenFor = entry.map(e -> owner.get().id() + " " + e.field()).orElse(null);
      boolean forThisImage = entry.isEmpty() || entry.get().remainderOf(image).isPresent();
      out.add(
          new Offer(
              key.secret(),
              key.key(),
              read ? "read" : "as the syncer writes it now",
              entry.flatMap(e -> from(e, key.credential(), in)).orElse(null),
              writtenFor,
              forThisImage));
    }
    return out;
  }

  /** The kuik resource whose injected Secret is named so. */
  private static Optional<RoutingResource> owner(List<Validated> resources, String secret) {
    if (!secret.startsWith(SecretNames.INJECT_PREFIX)) {
      return Optional.empty();
    }
    return resources.stream()
        .filter(Validated.Valid.class::isInstance)
        .map(v -> ((Validated.Valid) v).resource())
        .filter(r -> SecretNames.injected(r.id().kind().kind(), r.id().name()).equals(secret))
        .findFirst();
  }

  /** The source key holding this credential in the entry's secretRef, {@code ns/name: key}. */
  private static Optional<String> from(
      Entry entry, RegistryCredential credential, ExplainInputs in) {
    if (entry.auth() == null || entry.auth().secretRefName() == null) {
      return Optional.empty();
    }
    Secret source = in.clusterSecrets().get(entry.auth().secretRefName());
    if (source == null) {
      return Optional.empty();
    }
    Optional<DockerConfig> config = readable(source, "", new ArrayList<>());
    List<String> keys =
        config
            .map(
                c ->
                    c.auths().entrySet().stream()
                        .filter(e -> e.getValue().equals(credential))
                        .map(Map.Entry::getKey)
                        .toList())
            .orElse(List.of());
    if (keys.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        source.getMetadata().getNamespace()
            + "/"
            + source.getMetadata().getName()
            + ": "
            + String.join(" = ", keys));
  }
}
