package io.kuik.explain;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.kube.Records;
import io.kuik.model.DockerConfig;
import io.kuik.model.InvalidDockerConfigException;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RewrittenPod;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import io.kuik.ports.SecretWriter;
import io.kuik.syncer.SecretSyncer;
import io.kuik.syncer.SyncerSettings;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the production syncer writes now in one namespace, found by running it: a fresh {@link
 * SecretSyncer} over a view of what {@code kuik explain} read (that namespace, its pods, the
 * routing resources, the {@code secretRef} Secrets), whose applies and Events are kept instead of
 * sent. Its clock is its own and only moves to the wake-ups it asks for; nothing is written.
 */
final class SyncerNow {

  /** The Secrets the syncer would apply, by name, and the Warnings it would record. */
  record Result(Map<String, DockerConfig> secrets, List<String> warnings) {}

  private static final int MAX_WAKEUPS = 1_000;

  private SyncerNow() {}

  static Result run(
      SyncerSettings settings,
      String namespace,
      Map<String, String> namespaceLabels,
      List<Validated> resources,
      List<Pod> pods,
      Map<String, Secret> clusterSecrets) {
    ObservedNamespace ns = new ObservedNamespace(namespace, namespaceLabels, false);
    // The syncer's informer selects the webhook's label: a pod without it is not seen.
    List<RewrittenPod> rewritten =
        pods.stream()
            .filter(
                pod ->
                    pod.getMetadata().getLabels() != null
                        && RewriteAnnotations.REWRITTEN_LABEL_VALUE.equals(
                            pod.getMetadata().getLabels().get(RewriteAnnotations.REWRITTEN_LABEL)))
            .map(Records::pod)
            .toList();
    Map<String, DockerConfig> written = new TreeMap<>();
    Set<String> warnings = new LinkedHashSet<>();
    Instant[] now = {Instant.EPOCH};
    Instant[] wake = {null};
    // Every apply succeeds; its answer comes after the wake-up that sent it, as the driver's does.
    List<java.util.function.Consumer<SecretWriter.Outcome>> answers = new ArrayList<>();
    SecretWriter writer =
        (secret, answered) -> {
          content(secret).ifPresent(c -> written.put(secret.getMetadata().getName(), c));
          answers.add(answered);
        };
    SecretSyncer syncer =
        new SecretSyncer(
            settings,
            () -> now[0],
            at -> wake[0] = wake[0] == null || at.isBefore(wake[0]) ? at : wake[0],
            new View(ns, resources, rewritten, clusterSecrets),
            writer,
            (resource, uid, type, reason, message) -> {
              if (type == io.kuik.ports.EventRecorder.Type.Warning) {
                warnings.add(resource + " " + reason + ": " + message);
              }
            });
    syncer.start();
    for (int i = 0; i < MAX_WAKEUPS && wake[0] != null; i++) {
      if (wake[0].isAfter(now[0])) {
        now[0] = wake[0];
      }
      wake[0] = null;
      syncer.onWakeup();
      List<java.util.function.Consumer<SecretWriter.Outcome>> due = List.copyOf(answers);
      answers.clear();
      due.forEach(answered -> answered.accept(new SecretWriter.Applied()));
    }
    return new Result(written, new ArrayList<>(warnings));
  }

  private static Optional<DockerConfig> content(Secret secret) {
    String encoded = secret.getData() == null ? null : secret.getData().get(".dockerconfigjson");
    if (encoded == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          DockerConfig.parse(
              new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8)));
    } catch (InvalidDockerConfigException | IllegalArgumentException notOurs) {
      return Optional.empty();
    }
  }

  /** The informers' view, reduced to what was read. */
  private record View(
      ObservedNamespace namespace,
      List<Validated> resources,
      List<RewrittenPod> pods,
      Map<String, Secret> clusterSecrets)
      implements InformerView {

    @Override
    public Collection<Validated> routingResources() {
      return resources;
    }

    @Override
    public Optional<Validated> routingResource(ResourceId id) {
      return resources.stream().filter(r -> r.id().equals(id)).findFirst();
    }

    @Override
    public Collection<ObservedNamespace> namespaces() {
      return List.of(namespace);
    }

    @Override
    public Optional<ObservedNamespace> namespace(String name) {
      return name.equals(namespace.name()) ? Optional.of(namespace) : Optional.empty();
    }

    @Override
    public Collection<RewrittenPod> pods(String name) {
      return name.equals(namespace.name()) ? pods : List.of();
    }

    @Override
    public Optional<Secret> clusterSecret(String name) {
      return Optional.ofNullable(clusterSecrets.get(name));
    }
  }
}
