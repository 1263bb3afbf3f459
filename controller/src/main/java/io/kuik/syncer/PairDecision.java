package io.kuik.syncer;

import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.DockerConfig;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.RegistryCredential;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import io.kuik.syncer.ProblemReports.Problem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What one pair's Secret must hold now, and whether it may be written: the per-pair decision
 * (docs/architecture.md#one-pair-one-decision), pure. It reads the informers' view, the pair's
 * grace clocks and whether this process wrote the pair, and returns the {@link Verdict}, the keys
 * held ({@link Hold}), the content and its hash ({@link DesiredSecrets}), the problems to report
 * and when the pair must be looked at again. Whether the write is sent is {@link #needsApply}, one
 * predicate; when it may go is the pacer's business, not this decision's.
 */
public final class PairDecision {

  /** Why the pair is, or is not, written. */
  public enum Verdict {
    /** Its resource or its namespace is gone from the view: the pair is forgotten. */
    GONE,
    /** Its resource is invalid: reported when it changed; its Secrets keep their last content. */
    INVALID,
    /** Its namespace is terminating: writes are refused there, the Secret goes with it. */
    TERMINATING,
    /** Nothing to hold, and never written by this process: left as is (the restart leftovers). */
    NOT_OURS,
    /** Over the 1 MiB of a Secret: nothing is written and the Secret keeps its last content. */
    TOO_LARGE,
    /** {@link #content} is what the Secret must hold: written when {@link #needsApply} says so. */
    WRITE
  }

  private final Pair pair;
  private final Verdict verdict;
  private final RoutingResource resource;
  private final Hold hold;
  private final DockerConfig content;
  private final List<Problem> problems;
  private final List<Claims.NotRecognized> notRecognized;
  private final long hash;

  /** The held keys of provider entries with no credential to write now. */
  private Set<String> unminted = Set.of();

  /** The provider credential each held key of a provider entry holds. */
  private Map<String, io.kuik.model.ProviderCredential> minted = Map.of();

  private PairDecision(
      Pair pair,
      Verdict verdict,
      RoutingResource resource,
      Hold hold,
      DockerConfig content,
      List<Problem> problems) {
    this(
        pair,
        verdict,
        resource,
        hold,
        content,
        problems,
        hold == null ? List.of() : hold.notRecognized());
  }

  private PairDecision(
      Pair pair,
      Verdict verdict,
      RoutingResource resource,
      Hold hold,
      DockerConfig content,
      List<Problem> problems,
      List<Claims.NotRecognized> notRecognized) {
    this.pair = Objects.requireNonNull(pair, "pair");
    this.verdict = verdict;
    this.resource = resource;
    this.hold = hold;
    this.content = content;
    this.problems = List.copyOf(problems);
    this.notRecognized = List.copyOf(notRecognized);
    this.hash =
        verdict == Verdict.WRITE ? DesiredSecrets.hash(resource, pair.namespace(), content) : 0;
  }

  /**
   * The decision for {@code pair} at {@code now}, from what {@code view} shows, the pair's grace
   * clocks since its last look, and whether this process wrote its Secret; {@code credentials}
   * resolves a resource's entries (a caller may cache it for the resources of one wake-up).
   */
  static PairDecision decide(
      Pair pair,
      InformerView view,
      SyncerSettings settings,
      GraceClocks clocks,
      boolean written,
      Function<RoutingResource, EntryCredentials> credentials,
      Instant now) {
    Optional<Validated> found = view.routingResource(pair.resource());
    Optional<ObservedNamespace> namespace = view.namespace(pair.namespace());
    if (found.isEmpty() || namespace.isEmpty()) {
      // A pod of a served namespace that claims a resource that does not exist claims nothing.
      List<Claims.NotRecognized> forged =
          found.isEmpty()
                  && namespace.isPresent()
                  && settings.targeting().serves(pair.namespace(), namespace.get().labels())
              ? Claims.ofMissing(pair.resource(), view.pods(pair.namespace())).notRecognized()
              : List.of();
      return new PairDecision(pair, Verdict.GONE, null, null, null, List.of(), forged);
    }
    if (!(found.get() instanceof Validated.Valid valid)) {
      Problem invalid =
          new Problem(ProblemReports.INVALID_RESOURCE, "", validityMessages(found.get()));
      return new PairDecision(pair, Verdict.INVALID, null, null, null, List.of(invalid));
    }
    RoutingResource resource = valid.resource();
    if (namespace.get().terminating()) {
      return new PairDecision(pair, Verdict.TERMINATING, resource, null, null, List.of());
    }
    Hold hold =
        Hold.keysToHold(
            resource,
            pair.namespace(),
            namespace.get().labels(),
            view.pods(pair.namespace()),
            settings.targeting(),
            clocks,
            settings.grace(),
            now);
    boolean wanted = !hold.keys().isEmpty();
    if (!wanted && !written) {
      return new PairDecision(pair, Verdict.NOT_OURS, resource, hold, null, List.of());
    }
    EntryCredentials resolved = credentials.apply(resource);
    List<Problem> problems = new ArrayList<>();
    problems.add(
        new Problem(
            ProblemReports.INJECTION_FAILED,
            "",
            resolved.problems().stream()
                .map(EntryCredentials.Problem::message)
                .collect(Collectors.toCollection(LinkedHashSet::new))));
    DockerConfig content = wanted ? contentOf(resolved, hold.keys()) : DockerConfig.empty();
    int bytes = DesiredSecrets.dataBytes(content);
    boolean tooLarge = bytes > DesiredSecrets.MAX_DATA_BYTES;
    problems.add(
        new Problem(
            ProblemReports.SECRET_TOO_LARGE,
            pair.namespace(),
            tooLarge ? Set.of(tooLargeMessage(pair.namespace(), bytes)) : Set.of()));
    PairDecision decision =
        new PairDecision(
            pair, tooLarge ? Verdict.TOO_LARGE : Verdict.WRITE, resource, hold, content, problems);
    if (wanted) {
      Set<String> waiting = new java.util.TreeSet<>(resolved.unminted());
      waiting.retainAll(hold.keys());
      decision.unminted = Set.copyOf(waiting);
      Map<String, io.kuik.model.ProviderCredential> held = new java.util.TreeMap<>();
      resolved
          .minted()
          .forEach(
              (key, credential) -> {
                if (hold.keys().contains(key)) {
                  held.put(key, credential);
                }
              });
      decision.minted = java.util.Collections.unmodifiableMap(held);
    }
    return decision;
  }

  /**
   * The pair as a process that just started decides it: no grace clock, never written; the Secret
   * it would apply first ({@code kuik explain}'s question).
   */
  public static PairDecision decideFresh(
      Pair pair, InformerView view, SyncerSettings settings, Instant now) {
    return decide(
        pair,
        view,
        settings,
        GraceClocks.NONE,
        false,
        credentialsFrom(view, settings, ProviderLookup.kept(view, settings, now)),
        now);
  }

  /**
   * Resolves a resource's entries from the secretRef Secrets {@code view} shows, and its provider
   * entries from {@code providers}.
   */
  static Function<RoutingResource, EntryCredentials> credentialsFrom(
      InformerView view, SyncerSettings settings, ProviderLookup providers) {
    return resource ->
        EntryCredentials.resolve(
            resource, settings.clusterResourceNamespace(), view::clusterSecret, providers);
  }

  /**
   * Whether the write would change anything the core knows of: the content differs from what this
   * process last applied to the pair ({@code applied}, null when it applied none), or a resync is
   * owed, which bypasses that memory so that a Secret someone deleted comes back.
   */
  boolean needsApply(Long applied, boolean resyncOwed) {
    if (verdict != Verdict.WRITE) {
      return false;
    }
    return resyncOwed || applied == null || applied != hash;
  }

  public Verdict verdict() {
    return verdict;
  }

  public Pair pair() {
    return pair;
  }

  /** What the Secret must hold, for {@link Verdict#WRITE} (and what was too large). */
  public Optional<DockerConfig> content() {
    return Optional.ofNullable(content);
  }

  /** The Secret to apply, for {@link Verdict#WRITE}. */
  public Secret desiredSecret() {
    requireWrite();
    return DesiredSecrets.desiredSecret(resource, pair.namespace(), content);
  }

  /** Every problem found, as the Warning Events would say them: {@code reason: message}. */
  public List<String> warnings() {
    List<String> lines = new ArrayList<>();
    problems.forEach(p -> p.messages().forEach(m -> lines.add(p.reason() + ": " + m)));
    return lines;
  }

  /**
   * Whether a key the pair must hold is a provider entry's with no credential to write yet (the
   * first mint on its way, or the plugin failing past the bound): a pod gated on the pair waits.
   */
  public boolean waitsForProvider() {
    return !unminted.isEmpty();
  }

  /**
   * The provider credential each held key of a provider entry holds, by auths key: what {@code kuik
   * explain} shows the expiry of.
   */
  public Map<String, io.kuik.model.ProviderCredential> providerCredentials() {
    return minted;
  }

  /** The content's hash, which the applied-content memory compares. */
  long hash() {
    requireWrite();
    return hash;
  }

  /** The keys held and the grace clocks after this look; empty when the pair was not looked at. */
  Optional<Hold> hold() {
    return Optional.ofNullable(hold);
  }

  /** The routing resource, unless it is gone or invalid. */
  Optional<RoutingResource> resource() {
    return Optional.ofNullable(resource);
  }

  /** Each reason's messages now, in the order found; an empty set clears the reason. */
  List<Problem> problems() {
    return problems;
  }

  /** The pods' claims of the resource that count for nothing (docs/behaviour.md). */
  List<Claims.NotRecognized> notRecognized() {
    return notRecognized;
  }

  private void requireWrite() {
    if (verdict != Verdict.WRITE) {
      throw new IllegalStateException(pair + " is not to be written: " + verdict);
    }
  }

  /** Every field-addressed problem of an invalid resource; none for a valid one. */
  static Set<String> validityMessages(Validated validated) {
    Set<String> messages = new LinkedHashSet<>();
    if (validated instanceof Validated.Invalid invalid) {
      invalid.problems().forEach(p -> messages.add(p.field() + ": " + p.message()));
    }
    return messages;
  }

  private static String tooLargeMessage(String namespace, int bytes) {
    return "the pull secret for namespace "
        + namespace
        + " would hold "
        + bytes
        + " bytes, over the 1 MiB limit of a Secret: nothing was written and the Secret keeps"
        + " its last content";
  }

  private static DockerConfig contentOf(EntryCredentials credentials, Set<String> keys) {
    Map<String, RegistryCredential> auths = new LinkedHashMap<>();
    for (String key : keys) {
      RegistryCredential credential = credentials.credentials().get(key);
      if (credential != null) {
        auths.put(key, credential);
      }
    }
    return new DockerConfig(auths);
  }
}
