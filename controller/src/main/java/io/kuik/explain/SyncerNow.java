package io.kuik.explain;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.kube.syncer.Records;
import io.kuik.model.DockerConfig;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RewrittenPod;
import io.kuik.model.SecretNames;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import io.kuik.syncer.Pair;
import io.kuik.syncer.PairDecision;
import io.kuik.syncer.SyncerSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the production syncer writes now in one namespace: the core's own per-pair decision ({@link
 * PairDecision#decideFresh}) for every routing resource in that namespace, over a view of what
 * {@code kuik explain} read (the namespace, its pods, the routing resources, the {@code secretRef}
 * Secrets), as a syncer that just started decides it. Nothing is written.
 */
final class SyncerNow {

  /**
   * The Secrets the syncer would apply, by name, the Warnings it would record, and the provider
   * credential each provider entry's key holds, by Secret name and auths key.
   */
  record Result(
      Map<String, DockerConfig> secrets,
      List<String> warnings,
      Map<String, Map<String, ProviderCredential>> minted) {}

  private SyncerNow() {}

  static Result run(
      SyncerSettings settings,
      String namespace,
      Map<String, String> namespaceLabels,
      List<Validated> resources,
      List<Pod> pods,
      Map<String, Secret> clusterSecrets,
      Instant now) {
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
    View view = new View(ns, resources, rewritten, clusterSecrets);
    Map<String, DockerConfig> written = new TreeMap<>();
    Map<String, Map<String, ProviderCredential>> minted = new TreeMap<>();
    Set<String> warnings = new LinkedHashSet<>();
    // As the syncer reports them: every invalid resource when it starts, then each pair's problems.
    List<Validated> invalidFirst = new ArrayList<>();
    resources.stream().filter(Validated.Invalid.class::isInstance).forEach(invalidFirst::add);
    resources.stream()
        .filter(Validated.Valid.class::isInstance)
        .sorted(Comparator.comparing(r -> r.id().toString()))
        .forEach(invalidFirst::add);
    for (Validated resource : invalidFirst) {
      PairDecision decision =
          PairDecision.decideFresh(new Pair(resource.id(), namespace), view, settings, now);
      decision.warnings().forEach(w -> warnings.add(resource.id() + " " + w));
      if (decision.verdict() == PairDecision.Verdict.WRITE) {
        ResourceId id = resource.id();
        String name = SecretNames.injected(id.kind().kind(), id.name());
        written.put(name, decision.content().orElseThrow());
        minted.put(name, decision.providerCredentials());
      }
    }
    return new Result(written, new ArrayList<>(warnings), minted);
  }

  /** The informers' view, reduced to what was read: one namespace. */
  record View(
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
