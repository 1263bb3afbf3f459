package io.kuik.explain;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kuik.explain.Explanation.ContainerExplanation;
import io.kuik.explain.Explanation.Offer;
import io.kuik.explain.Explanation.WebhookNow;
import io.kuik.model.Durations;
import io.kuik.model.Entry;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RoutingResource;
import io.kuik.model.SecretNames;
import io.kuik.model.Validated;
import io.kuik.model.crd.RoutingResourceStatus.CredentialStatus;
import io.kuik.ports.Clock;
import io.kuik.ports.RegistryProber;
import io.kuik.routing.Candidate;
import io.kuik.routing.ContainerDecision;
import io.kuik.routing.Router;
import io.kuik.routing.RoutingDecision;
import io.kuik.routing.RoutingIndex;
import io.kuik.syncer.SyncerSettings;
import io.kuik.syncer.Targeting;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Explains one pod from what was read ({@link ExplainInputs}), with the production classes only:
 * the webhook's {@link Router} decides as if the pod were created now (from its original images),
 * the syncer ({@link SyncerNow}) says what its {@code kuik-inject-*} Secrets hold in the namespace,
 * and {@link KubeletKeyring} which of the pod's keys the kubelet offers for each image. No IO: the
 * prober is the only port that may reach out, and only with {@code --probe}.
 */
final class Explainer {

  /** Answers no probe: the candidates are listed and nothing is chosen. */
  static final RegistryProber NOT_PROBING = candidates -> List.of();

  private final SyncerSettings settings;
  private final RegistryProber prober;
  private final boolean probing;
  private final Clock clock;

  /**
   * @param settings the syncer's: the cluster resource namespace and its targeting
   * @param prober the production prober with {@code --probe}, else {@link #NOT_PROBING}
   */
  Explainer(SyncerSettings settings, RegistryProber prober) {
    this(settings, prober, java.time.Clock.systemUTC()::instant);
  }

  /** With {@code clock}, by which provider credentials are judged (their expiry, the bound). */
  Explainer(SyncerSettings settings, RegistryProber prober, Clock clock) {
    this.settings = settings;
    this.prober = prober;
    this.clock = clock;
    this.probing = prober != NOT_PROBING;
  }

  Explanation explain(ExplainInputs in) {
    Pod pod = in.pod();
    String namespace = in.namespace();
    List<String> warnings = new ArrayList<>();
    Map<String, String> labels = in.namespaceLabels().orElse(Map.of());
    Targeting targeting = settings.targeting();
    Boolean served = in.namespaceLabels().map(l -> targeting.serves(namespace, l)).orElse(null);
    if (!targeting.served().serves(namespace)) {
      warnings.add(
          "kuik never serves namespace "
              + namespace
              + " (kube-system, its install namespace and the chart's"
              + " webhook.excludedNamespaces): no pod there is rewritten, and the syncer writes no"
              + " kuik-inject-* Secret there");
    } else if (Boolean.FALSE.equals(served)) {
      warnings.add(
          "the syncer of "
              + targeting.instance()
              + " does not serve namespace "
              + namespace
              + " (its kuik.enix.io/pull-secrets-* labels, or namespacesByDefault="
              + targeting.namespacesByDefault()
              + "): it writes no kuik-inject-* Secret there");
    }

    Instant at = clock.now();
    RoutingDecision now =
        new Router(prober, name -> Optional.ofNullable(in.clusterSecrets().get(name)), () -> at)
            .route(RoutingIndex.ofValidated(in.resources()), submitted(pod, in.admitted()), labels);
    List<Pod> pods =
        in.admitted() ? in.namespacePods() : withTemplate(in.namespacePods(), pod, now);
    SyncerNow.Result syncer =
        SyncerNow.run(settings, namespace, labels, in.resources(), pods, in.clusterSecrets(), at);
    warnings.addAll(syncer.warnings());

    Map<String, String> originals = annotation(pod, RewriteAnnotations.ORIGINAL_IMAGES);
    Map<String, String> rewriters = annotation(pod, RewriteAnnotations.REWRITTEN_BY);
    Map<String, String> reasons = annotation(pod, RewriteAnnotations.REASON);
    List<String> references =
        PullSecretKeys.references(pod, in.admitted() ? List.of() : now.addedPullSecrets());
    List<KubeletKeyring.Key> keyring =
        PullSecretKeys.keyring(in, references, syncer, targeting.instance(), warnings);

    List<ContainerExplanation> containers = new ArrayList<>();
    for (Container container : containers(pod)) {
      String name = container.getName();
      String image = container.getImage();
      String rewrittenBy = rewriters.get(name);
      Optional<ImageReference> reference = parse(image);
      Optional<RoutingResource> resource =
          ResourceId.parse(rewrittenBy).flatMap(id -> valid(in.resources(), id));
      Optional<Entry> entry = resource.flatMap(r -> reference.flatMap(r::entryFor));
      if (!in.admitted()) {
        // A template: the webhook's decision now says who would rewrite it.
        Optional<Candidate> chosen = chosen(now, name);
        resource = chosen.map(Candidate::resource);
        entry = chosen.map(Candidate::entry);
        rewrittenBy = chosen.map(c -> c.by().toString()).orElse(null);
      }
      String pullSecret =
          entry.isPresent() && entry.get().injects()
              ? SecretNames.injected(resource.get().id().kind().kind(), resource.get().id().name())
              : null;
      boolean referenced = pullSecret != null && references.contains(pullSecret);
      String credential =
          pullSecret == null ? null : credential(in, resource.get().id(), entry.get());
      if (credential != null && credential.startsWith(REFUSED)) {
        warnings.add(
            "container "
                + name
                + ": "
                + credential
                + "; a pull with "
                + pullSecret
                + " will fail until the credential in its secretRef Secret is fixed");
      }
      String running =
          in.admitted() ? image : chosen(now, name).map(c -> c.image().toString()).orElse(image);
      List<Offer> offered =
          parse(running)
              .map(i -> PullSecretKeys.offers(KubeletKeyring.offered(keyring, i), i, in))
              .orElse(List.of());
      if (pullSecret != null && !referenced) {
        warnings.add(
            "container "
                + name
                + ": its credential is in "
                + pullSecret
                + ", which the pod does not list in imagePullSecrets");
      }
      for (Offer offer : offered) {
        if (!offer.forThisImage()) {
          warnings.add(
              "container "
                  + name
                  + ": the kubelet also offers "
                  + offer.secret()
                  + " key "
                  + offer.key()
                  + ", written for "
                  + offer.writtenFor()
                  + ", to "
                  + running
                  + ", an image it was not written for");
        }
      }
      containers.add(
          new ContainerExplanation(
              name,
              running,
              in.admitted() ? originals.get(name) : (running.equals(image) ? null : image),
              rewrittenBy,
              entry.map(e -> e.field() + " (" + e.authsKey() + ")").orElse(null),
              in.admitted() ? reasons.get(name) : decisionReason(now, name),
              webhookNow(now, name),
              pullSecret,
              referenced,
              credential,
              minted(entry, pullSecret, syncer, at),
              offered));
    }
    return new Explanation(
        in.object(),
        in.namespaceLabels().orElse(null),
        served,
        containers,
        new ArrayList<>(new LinkedHashSet<>(warnings)),
        in.unreadable());
  }

  /**
   * For a provider entry: the credential the syncer writes for it and when that expires, or that
   * none is written (the syncer mints it at run time; Warnings say why when it cannot).
   */
  private String minted(
      Optional<Entry> entry, String pullSecret, SyncerNow.Result syncer, Instant now) {
    if (entry.isEmpty() || pullSecret == null || entry.get().auth().provider() == null) {
      return null;
    }
    ProviderCredential credential =
        syncer.minted().getOrDefault(pullSecret, Map.of()).get(entry.get().authsKey());
    String provider = "provider " + entry.get().auth().provider();
    if (credential == null) {
      return provider
          + ": none kept in "
          + settings.clusterResourceNamespace()
          + " with more than minValidity left; the syncer mints it at run time";
    }
    return provider
        + ": minted at "
        + credential.mintedAt()
        + ", expires at "
        + credential.expiresAt()
        + " ("
        + Durations.text(java.time.Duration.between(now, credential.expiresAt()))
        + " left; minted again at "
        + credential.refreshAt()
        + ")";
  }

  // ---- the webhook now ------------------------------------------------------------------------

  /** The pod as it was submitted: original images, no kuik annotation, no reference kuik added. */
  static Pod submitted(Pod stored, boolean admitted) {
    Pod pod = new PodBuilder(stored).build();
    if (!admitted) {
      return pod;
    }
    Map<String, String> annotations =
        pod.getMetadata().getAnnotations() == null
            ? new HashMap<>()
            : new HashMap<>(pod.getMetadata().getAnnotations());
    Map<String, String> originals =
        RewriteAnnotations.readMap(annotations, RewriteAnnotations.ORIGINAL_IMAGES);
    if (originals.isEmpty()) {
      return pod;
    }
    for (Container container : containers(pod)) {
      String original = originals.get(container.getName());
      if (original != null) {
        container.setImage(original);
      }
    }
    annotations.remove(RewriteAnnotations.ORIGINAL_IMAGES);
    annotations.remove(RewriteAnnotations.REWRITTEN_BY);
    annotations.remove(RewriteAnnotations.REASON);
    pod.getMetadata().setAnnotations(annotations);
    if (pod.getSpec().getImagePullSecrets() != null) {
      pod.getSpec()
          .setImagePullSecrets(
              pod.getSpec().getImagePullSecrets().stream()
                  .filter(
                      r ->
                          r.getName() == null || !r.getName().startsWith(SecretNames.INJECT_PREFIX))
                  .toList());
    }
    return pod;
  }

  private WebhookNow webhookNow(RoutingDecision now, String container) {
    if (now.skipped() != null) {
      return new WebhookNow(probing, List.of(), null, now.skipped());
    }
    for (ContainerDecision decision : now.containers()) {
      if (decision.container().name().equals(container)) {
        List<String> candidates = new ArrayList<>();
        for (Candidate candidate : decision.candidates()) {
          candidates.add(
              candidate.image()
                  + "  "
                  + (candidate.isOriginal()
                      ? "original"
                      : candidate.by()
                          + " "
                          + candidate.entry().field()
                          + " "
                          + candidate.resource().rewritePolicy().value()));
        }
        if (!probing) {
          return new WebhookNow(false, candidates, null, "not probed: --probe asks the registries");
        }
        return new WebhookNow(
            true,
            candidates,
            decision.chosen() == null ? null : decision.chosen().image().toString(),
            decision.reason());
      }
    }
    String why = now.notCovered().get(container);
    return new WebhookNow(
        probing, List.of(), null, why == null ? "no routing resource covers it" : why);
  }

  private Optional<Candidate> chosen(RoutingDecision now, String container) {
    return now.containers().stream()
        .filter(d -> d.container().name().equals(container) && d.rewrites())
        .map(ContainerDecision::chosen)
        .findFirst();
  }

  private static String decisionReason(RoutingDecision now, String container) {
    return now.containers().stream()
        .filter(d -> d.container().name().equals(container))
        .map(ContainerDecision::reason)
        .findFirst()
        .orElse(null);
  }

  /**
   * The namespace's pods plus the template as the webhook would leave it, so that an OnFailure
   * Secret shows the entry the template's pods would need.
   */
  private static List<Pod> withTemplate(List<Pod> pods, Pod template, RoutingDecision now) {
    if (!now.changesPod()) {
      return pods;
    }
    Pod routed = new PodBuilder(template).build();
    Map<String, String> originals = new LinkedHashMap<>();
    Map<String, String> rewriters = new LinkedHashMap<>();
    for (ContainerDecision decision : now.rewrites()) {
      originals.put(decision.container().name(), decision.container().image());
      rewriters.put(decision.container().name(), decision.chosen().by().toString());
      for (Container container : containers(routed)) {
        if (container.getName().equals(decision.container().name())) {
          container.setImage(decision.chosen().image().toString());
        }
      }
    }
    Map<String, String> annotations = new HashMap<>();
    annotations.put(RewriteAnnotations.ORIGINAL_IMAGES, RewriteAnnotations.writeMap(originals));
    annotations.put(RewriteAnnotations.REWRITTEN_BY, RewriteAnnotations.writeMap(rewriters));
    routed.getMetadata().setAnnotations(annotations);
    Map<String, String> labels = new HashMap<>();
    if (routed.getMetadata().getLabels() != null) {
      labels.putAll(routed.getMetadata().getLabels());
    }
    labels.put(RewriteAnnotations.REWRITTEN_LABEL, RewriteAnnotations.REWRITTEN_LABEL_VALUE);
    routed.getMetadata().setLabels(labels);
    if (routed.getMetadata().getName() == null) {
      routed.getMetadata().setName("template");
    }
    List<Pod> all = new ArrayList<>(pods);
    all.add(routed);
    return all;
  }

  // ---- what the registry answered the syncer's trial ------------------------------------------

  /** How {@link #credential} starts for a refused credential. */
  static final String REFUSED = "REFUSED";

  /**
   * What the resource's status says the registry answered the entry's credential: {@code accepted
   * by quay.io}, {@code REFUSED by quay.io (401 ...)}, or that the syncer has not tried it yet.
   */
  private static String credential(ExplainInputs in, ResourceId id, Entry entry) {
    for (CredentialStatus status : in.credentials().getOrDefault(id, List.of())) {
      if (!entry.authsKey().equals(status.entry())) {
        continue;
      }
      String outcome = status.outcome() == null ? "" : status.outcome();
      String answer = status.answer() == null ? "" : " (" + status.answer() + ")";
      String when = status.lastTryTime() == null ? "" : ", tried " + status.lastTryTime();
      return switch (outcome) {
        case "Accepted" -> "accepted by " + status.registry() + when;
        case "Refused" -> REFUSED + " by " + status.registry() + answer + when;
        case "Unreachable" -> status.registry() + " did not answer" + answer + when;
        default -> "not tried yet by the syncer";
      };
    }
    return "not tried yet by the syncer (the resource's status says nothing of it)";
  }

  // ---- helpers
  // ------------------------------------------------------------------------------------

  private static List<Container> containers(Pod pod) {
    List<Container> all = new ArrayList<>();
    if (pod.getSpec() == null) {
      return all;
    }
    if (pod.getSpec().getContainers() != null) {
      all.addAll(pod.getSpec().getContainers());
    }
    if (pod.getSpec().getInitContainers() != null) {
      all.addAll(pod.getSpec().getInitContainers());
    }
    return all;
  }

  private static Map<String, String> annotation(Pod pod, String key) {
    return RewriteAnnotations.readMap(pod.getMetadata().getAnnotations(), key);
  }

  private static Optional<RoutingResource> valid(List<Validated> resources, ResourceId id) {
    return resources.stream()
        .filter(v -> v.id().equals(id) && v instanceof Validated.Valid)
        .map(v -> ((Validated.Valid) v).resource())
        .findFirst();
  }

  private static Optional<ImageReference> parse(String image) {
    try {
      return Optional.of(ImageReference.parse(image));
    } catch (InvalidImageReferenceException | RuntimeException unparsable) {
      return Optional.empty();
    }
  }

  static Set<String> secretRefs(List<Validated> resources) {
    Set<String> names = new LinkedHashSet<>();
    for (Validated v : resources) {
      if (v instanceof Validated.Valid valid) {
        for (Entry entry : valid.resource().entries()) {
          if (entry.auth() != null && entry.auth().secretRefName() != null) {
            names.add(entry.auth().secretRefName());
          }
        }
      }
    }
    return names;
  }
}
