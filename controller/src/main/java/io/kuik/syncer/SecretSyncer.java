package io.kuik.syncer;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.DockerConfig;
import io.kuik.model.Entry;
import io.kuik.model.LabelSelectors;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import io.kuik.ports.Clock;
import io.kuik.ports.EventRecorder;
import io.kuik.ports.InformerView;
import io.kuik.ports.Scheduler;
import io.kuik.ports.SecretWriter;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The secret-syncer's core (docs/architecture.md#data-flow): reacts to what the informers announce,
 * decides the desired Secret of each pair, and writes it blind with a server-side apply.
 *
 * <p>Sans-IO: it owns no thread and reads no clock of its own. The driver calls one handler at a
 * time, on one thread, and calls {@link #onWakeup()} when the {@link Scheduler} asked it to. The
 * only memory is what docs/architecture.md#the-pair allows: the pairs this process has written, the
 * grace clocks, the applied-content hashes, and the pending work.
 */
public final class SecretSyncer {

  private static final System.Logger LOG = System.getLogger(SecretSyncer.class.getName());

  private final SyncerSettings settings;
  private final Clock clock;
  private final Scheduler scheduler;
  private final InformerView view;
  private final SecretWriter writer;
  private final ProblemReports problems;
  private final GraceClocks grace;
  private final AppliedHashes hashes = new AppliedHashes();
  private final WorkQueue queue = new WorkQueue();
  private final Set<Pair> written = new HashSet<>();
  private final Map<Pair, Integer> failures = new HashMap<>();
  private final Map<Pair, Instant> backoffUntil = new HashMap<>();
  private final SyncerCounters counters = new SyncerCounters();
  private final WriteBudget budget;
  private boolean outOfTokens;
  private Instant wakeRequested;

  public SecretSyncer(
      SyncerSettings settings,
      Clock clock,
      Scheduler scheduler,
      InformerView view,
      SecretWriter writer,
      EventRecorder events) {
    this.settings = settings;
    this.clock = clock;
    this.scheduler = scheduler;
    this.view = view;
    this.writer = writer;
    this.problems = new ProblemReports(events);
    this.grace = new GraceClocks(settings.grace());
    this.budget = new WriteBudget(settings.writeQps(), settings.writeBurst(), clock.now());
  }

  /** Once the informers have synced: every pair the view shows is reconciled once. */
  public void start() {
    view.routingResources().forEach(this::reportValidity);
    enqueueEveryPairInBulk();
    requestWake();
  }

  public void onResourceChanged(ResourceId id) {
    view.routingResource(id).ifPresent(this::reportValidity);
    enqueueResource(id, false);
    requestWake();
  }

  /** Its Secrets go with it through their ownerReference: the garbage collector's job. */
  public void onResourceDeleted(ResourceId id) {
    for (Namespace ns : view.namespaces()) {
      forget(new Pair(id, ns.getMetadata().getName()));
    }
    written.removeIf(pair -> pair.resource().equals(id));
    problems.forget(id);
  }

  /** A namespace created, labelled or unlabelled: it may enter or leave a scope. */
  public void onNamespaceChanged(String namespace) {
    for (Validated resource : view.routingResources()) {
      enqueue(new Pair(resource.id(), namespace), false);
    }
    requestWake();
  }

  public void onNamespaceDeleted(String namespace) {
    for (Validated resource : view.routingResources()) {
      forget(new Pair(resource.id(), namespace));
    }
    written.removeIf(pair -> pair.namespace().equals(namespace));
  }

  /** A pod added ({@code before} null), changed, or gone ({@code after} null). */
  public void onPodChanged(Pod before, Pod after) {
    Pod any = after != null ? after : before;
    if (any == null) {
      return;
    }
    Set<ResourceId> rewriters = new LinkedHashSet<>();
    if (before != null) {
      rewriters.addAll(RewrittenPods.rewriters(before));
    }
    if (after != null) {
      rewriters.addAll(RewrittenPods.rewriters(after));
    }
    String namespace = any.getMetadata().getNamespace();
    for (ResourceId id : rewriters) {
      Pair pair = new Pair(id, namespace);
      if (before != null && RewrittenPods.isLive(before)) {
        startGraceOf(pair, before);
      }
      enqueue(pair, false);
    }
    requestWake();
  }

  /** The entries a pod used until now keep their grace even if no reconcile saw the pod. */
  private void startGraceOf(Pair pair, Pod pod) {
    view.routingResource(pair.resource())
        .filter(Validated.Valid.class::isInstance)
        .map(v -> ((Validated.Valid) v).resource())
        .filter(r -> r.rewritePolicy() == RewritePolicy.ON_FAILURE)
        .ifPresent(
            resource ->
                RewrittenPods.entriesServing(resource, List.of(pod)).stream()
                    .filter(Entry::injects)
                    .forEach(entry -> grace.sawNeeded(pair, entry.authsKey(), clock.now())));
  }

  /** A Secret of the cluster resource namespace was created, changed or deleted. */
  public void onClusterSecretChanged(String name) {
    for (Validated validated : view.routingResources()) {
      if (validated instanceof Validated.Valid valid && refersTo(valid.resource(), name)) {
        enqueueResource(valid.id(), false);
      }
    }
    requestWake();
  }

  /**
   * The informers' periodic resync: every pair is applied again, bypassing the hash, which restores
   * a Secret someone else deleted. Unchanged content is a no-op on the API server.
   */
  public void onResync() {
    Duration spread = settings.resyncSpread();
    for (Validated resource : view.routingResources()) {
      for (Namespace ns : view.namespaces()) {
        Pair pair = new Pair(resource.id(), ns.getMetadata().getName());
        enqueue(pair, offsetWithin(pair, spread), true, true);
      }
    }
    requestWake();
  }

  /**
   * Processes the pairs that are due. Spurious or late wake-ups are harmless. When a pair needs a
   * write and the write limit has no token left, it goes back to the queue and the rest stay there:
   * the next wake-up comes with the next token. A reconcile that needs no write costs no token, so
   * only writes are paced.
   */
  public void onWakeup() {
    wakeRequested = null;
    Instant now = clock.now();
    Map<ResourceId, EntryCredentials> resolved = new HashMap<>();
    outOfTokens = false;
    while (!outOfTokens) {
      Optional<WorkQueue.Item> item = queue.pollDue(now);
      if (item.isEmpty()) {
        break;
      }
      reconcile(item.get(), now, resolved);
    }
    requestWake();
  }

  public SyncerCounters counters() {
    return counters;
  }

  /** Pairs waiting for a reconcile: debounced, retried, or waiting for a grace to end. */
  public int queueDepth() {
    return queue.size();
  }

  private void reconcile(
      WorkQueue.Item item, Instant now, Map<ResourceId, EntryCredentials> resolved) {
    Pair pair = item.pair();
    counters.reconciles++;
    Optional<Validated> found = view.routingResource(pair.resource());
    Optional<Namespace> namespace = view.namespace(pair.namespace());
    if (found.isEmpty() || namespace.isEmpty()) {
      forget(pair);
      return;
    }
    if (!(found.get() instanceof Validated.Valid valid)) {
      return; // reported when it changed; its Secrets keep their last good content
    }
    if (namespace.get().getMetadata().getDeletionTimestamp() != null) {
      return; // terminating: new writes are refused, and the Secret goes with the namespace
    }
    RoutingResource resource = valid.resource();
    Set<String> keys = keysToHold(resource, namespace.get(), pair, now);
    boolean wanted = !keys.isEmpty();
    if (!wanted && !written.contains(pair)) {
      return; // never ours in this process: left as it is (the documented restart leftovers)
    }
    EntryCredentials credentials =
        resolved.computeIfAbsent(resource.id(), id -> resolveAndReport(resource));
    DockerConfig content = wanted ? contentOf(credentials, keys) : DockerConfig.empty();
    if (DesiredSecrets.dataBytes(content) > DesiredSecrets.MAX_DATA_BYTES) {
      reportTooLarge(resource, pair, content);
      return;
    }
    problems.report(
        resource.id(), resource.uid(), ProblemReports.SECRET_TOO_LARGE, pair.namespace(), Set.of());
    String hash = DesiredSecrets.hash(resource, pair.namespace(), content);
    if (!item.force() && !hashes.needsApply(pair, hash)) {
      counters.appliesSkipped++;
      return;
    }
    apply(item, pair, resource, content, hash, now);
  }

  /**
   * The auths keys the pair's Secret must hold now; empty when the pair needs no Secret. Under
   * OnFailure this also starts and ends the grace of keys no live pod uses any more.
   */
  private Set<String> keysToHold(
      RoutingResource resource, Namespace namespace, Pair pair, Instant now) {
    Map<String, String> labels = namespace.getMetadata().getLabels();
    boolean served = settings.targeting().serves(labels);
    Set<String> injecting = injectingKeys(resource);
    if (resource.rewritePolicy() != RewritePolicy.ON_FAILURE) {
      // Grace belongs to OnFailure needs: a clock left from an earlier OnFailure spell of the
      // resource would otherwise bring back a released key when it flips back to OnFailure.
      grace.forget(pair);
    }
    if (resource.rewritePolicy() == RewritePolicy.ALWAYS) {
      boolean inScope = served && LabelSelectors.matches(resource.namespaceSelector(), labels);
      return inScope ? injecting : Set.of();
    }
    if (resource.rewritePolicy() == RewritePolicy.ON_FAILURE) {
      Set<String> neededNow = new LinkedHashSet<>();
      if (served) {
        for (Entry entry : RewrittenPods.entriesServing(resource, view.pods(pair.namespace()))) {
          if (injecting.contains(entry.authsKey())) {
            neededNow.add(entry.authsKey());
          }
        }
      }
      Set<String> keep = grace.keep(pair, neededNow, served ? injecting : Set.of(), now);
      grace.nextExpiry(pair).ifPresent(expiry -> queue.enqueue(pair, expiry, false));
      return keep;
    }
    return Set.of(); // None: copy only, never routed, nothing to inject
  }

  private void apply(
      WorkQueue.Item item,
      Pair pair,
      RoutingResource resource,
      DockerConfig content,
      String hash,
      Instant now) {
    if (!budget.hasToken(now)) {
      queue.enqueue(pair, item.due(), item.force(), item.bulk()); // keeps its place in line
      counters.writesDeferred++;
      outOfTokens = true;
      return;
    }
    Secret secret = DesiredSecrets.desiredSecret(resource, pair.namespace(), content);
    counters.appliesSent++;
    budget.take(now);
    SecretWriter.Outcome outcome = writer.apply(secret);
    if (outcome instanceof SecretWriter.Refused refused) {
      counters.applyFailures++;
      hashes.forget(pair);
      if (refused.namespaceTerminating()) {
        return;
      }
      int attempts = failures.merge(pair, 1, Integer::sum);
      Duration delay = backoff(attempts);
      backoffUntil.put(pair, now.plus(delay));
      queue.enqueue(pair, now.plus(delay), item.force());
      LOG.log(
          Level.WARNING,
          "apply of {0} refused ({1} {2}), retry in {3}: {4}",
          pair,
          refused.code(),
          refused.reason(),
          delay,
          refused.message());
      if (refused.code() == 403 || refused.code() == 422) {
        problems.report(
            resource.id(),
            resource.uid(),
            ProblemReports.WRITE_REFUSED,
            pair.namespace(),
            Set.of(
                "writing "
                    + secret.getMetadata().getName()
                    + " in namespace "
                    + pair.namespace()
                    + " was refused: "
                    + refused.message()));
      }
      return;
    }
    written.add(pair);
    hashes.applied(pair, hash);
    backoffUntil.remove(pair);
    if (failures.remove(pair) != null) {
      problems.report(
          resource.id(), resource.uid(), ProblemReports.WRITE_REFUSED, pair.namespace(), Set.of());
    }
  }

  /** Capped exponential backoff: base, 2×base, 4×base, … up to the cap. */
  private Duration backoff(int attempts) {
    Duration delay = settings.retryBase();
    for (int i = 1; i < attempts && delay.compareTo(settings.retryCap()) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(settings.retryCap()) > 0 ? settings.retryCap() : delay;
  }

  private EntryCredentials resolveAndReport(RoutingResource resource) {
    EntryCredentials credentials =
        EntryCredentials.resolve(
            resource, settings.clusterResourceNamespace(), view::clusterSecret);
    problems.report(
        resource.id(),
        resource.uid(),
        ProblemReports.INJECTION_FAILED,
        "",
        credentials.problems().stream()
            .map(EntryCredentials.Problem::message)
            .collect(Collectors.toCollection(LinkedHashSet::new)));
    return credentials;
  }

  private void reportValidity(Validated validated) {
    Set<String> messages = new LinkedHashSet<>();
    if (validated instanceof Validated.Invalid invalid) {
      invalid.problems().forEach(p -> messages.add(p.field() + ": " + p.message()));
    }
    problems.report(validated.id(), null, ProblemReports.INVALID_RESOURCE, "", messages);
  }

  private void reportTooLarge(RoutingResource resource, Pair pair, DockerConfig content) {
    problems.report(
        resource.id(),
        resource.uid(),
        ProblemReports.SECRET_TOO_LARGE,
        pair.namespace(),
        Set.of(
            "the pull secret for namespace "
                + pair.namespace()
                + " would hold "
                + DesiredSecrets.dataBytes(content)
                + " bytes, over the 1 MiB limit of a Secret: nothing was written and the Secret keeps its last content"));
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

  private static Set<String> injectingKeys(RoutingResource resource) {
    Set<String> keys = new LinkedHashSet<>();
    for (Entry entry : resource.entries()) {
      if (entry.auth() != null && entry.auth().injects()) {
        keys.add(entry.authsKey());
      }
    }
    return keys;
  }

  private static boolean refersTo(RoutingResource resource, String secretName) {
    return resource.entries().stream()
        .anyMatch(e -> e.auth() != null && secretName.equals(e.auth().secretRefName()));
  }

  /** The start's pass over every pair, in the bulk lane: events go first. */
  private void enqueueEveryPairInBulk() {
    for (Validated resource : view.routingResources()) {
      for (Namespace ns : view.namespaces()) {
        enqueue(new Pair(resource.id(), ns.getMetadata().getName()), Duration.ZERO, false, true);
      }
    }
  }

  private void enqueueResource(ResourceId id, boolean force) {
    for (Namespace ns : view.namespaces()) {
      enqueue(new Pair(id, ns.getMetadata().getName()), force);
    }
  }

  /**
   * Due after the debounce, but never before a failing pair's backoff ends: events that keep coming
   * must not turn the retry of a refused write into a tight loop.
   */
  private void enqueue(Pair pair, boolean force) {
    enqueue(pair, Duration.ZERO, force, false);
  }

  private void enqueue(Pair pair, Duration delay, boolean force, boolean bulk) {
    Instant due = clock.now().plus(settings.debounce()).plus(delay);
    Instant notBefore = backoffUntil.get(pair);
    queue.enqueue(pair, notBefore != null && notBefore.isAfter(due) ? notBefore : due, force, bulk);
  }

  /**
   * A fixed offset of the pair within the window, from its name: every resync spreads the same way,
   * so each pair is applied once per period, and no pair waits longer than the window.
   */
  static Duration offsetWithin(Pair pair, Duration window) {
    if (window.isZero()) {
      return Duration.ZERO;
    }
    long h = pair.toString().hashCode() * 0x9E3779B97F4A7C15L;
    h ^= h >>> 29;
    double fraction = (h >>> 11) / (double) (1L << 53);
    return Duration.ofNanos((long) (fraction * window.toNanos()));
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private void forget(Pair pair) {
    queue.forget(pair);
    grace.forget(pair);
    hashes.forget(pair);
    failures.remove(pair);
    backoffUntil.remove(pair);
    written.remove(pair);
  }

  private void requestWake() {
    queue
        .nextDue()
        .map(
            due -> budget.hasToken(clock.now()) ? due : later(due, budget.nextTokenAt(clock.now())))
        .ifPresent(
            due -> {
              if (wakeRequested == null || due.isBefore(wakeRequested)) {
                wakeRequested = due;
                scheduler.wakeAt(due);
              }
            });
  }
}
