package io.kuik.syncer;

import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.DockerConfig;
import io.kuik.model.Entry;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import io.kuik.ports.Clock;
import io.kuik.ports.EventRecorder;
import io.kuik.ports.InformerView;
import io.kuik.ports.Scheduler;
import io.kuik.ports.SecretWriter;
import io.kuik.ports.StatusWriter;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
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

  /** How a reconcile ended. */
  private enum Outcome {
    /** The desired Secret was applied. */
    APPLIED(true, true),
    /** Decided without a write: nothing to write, unchanged, or not allowed now. */
    NO_WRITE(false, true),
    /** Put back in the queue: no write token, or no room in flight. Nothing was decided. */
    PUT_BACK(false, false),
    /** The apply is in flight: the pair is settled when its answer comes. */
    SENT(false, false),
    /** The apply was refused and a retry is queued: decided, but not reached the server. */
    RETRYING(false, false);

    final boolean applied;

    /** Whether the pair now holds what the view asks for, as far as the core can know. */
    final boolean settled;

    Outcome(boolean applied, boolean settled) {
      this.applied = applied;
      this.settled = settled;
    }
  }

  private final SyncerSettings settings;
  private final Clock clock;
  private final Scheduler scheduler;
  private final InformerView view;
  private final SecretWriter writer;
  private final StatusWriter statusWriter;
  private final ResourceStatuses statuses = new ResourceStatuses();
  private final SyncerObserver observer;
  private final ProblemReports problems;
  private final AppliedHashes hashes;
  private final WorkQueue queue = new WorkQueue();
  private final ResyncSlots resyncs;
  private final Propagations propagations = new Propagations();
  private final Map<Pair, GraceClocks> clocks = new HashMap<>();
  private final Map<Pair, Retry> retries = new HashMap<>();
  private final Set<Pair> written = new HashSet<>();

  /**
   * Each resource's entry credentials, resolved from its source Secrets until the resource or a
   * Secret of the cluster resource namespace changes, or a resync: a source Secret may hold a
   * megabyte of auths, and reading it again for each pair would cost that much per pair.
   */
  private final Map<ResourceId, EntryCredentials> resolved = new HashMap<>();

  private final SyncerCounters counters = new SyncerCounters();
  private final ClaimReports claimReports;
  private final WriteBudget budget;
  private final InFlight inFlight;

  /** The resync lane's own share of {@link #budget}: event work always keeps the rest. */
  private final WriteBudget resyncBudget;

  /** The resync window in use: the period, or longer when the share cannot apply every pair. */
  private Duration resyncWindow;

  /** Set when a write cannot go now (no token, or no room in flight): the wake-up stops there. */
  private boolean paused;

  private Instant wakeRequested;

  public SecretSyncer(
      SyncerSettings settings,
      Clock clock,
      Scheduler scheduler,
      InformerView view,
      SecretWriter writer,
      EventRecorder events) {
    this(settings, clock, scheduler, view, writer, events, SyncerObserver.NONE, StatusWriter.NONE);
  }

  /** With a writer of the routing resources' status. */
  public SecretSyncer(
      SyncerSettings settings,
      Clock clock,
      Scheduler scheduler,
      InformerView view,
      SecretWriter writer,
      EventRecorder events,
      SyncerObserver observer,
      StatusWriter statusWriter) {
    this(
        settings,
        clock,
        scheduler,
        view,
        writer,
        events,
        observer,
        new AppliedHashes(),
        statusWriter);
  }

  /** With the given applied-content hashes: a test drops them to show they change no outcome. */
  SecretSyncer(
      SyncerSettings settings,
      Clock clock,
      Scheduler scheduler,
      InformerView view,
      SecretWriter writer,
      EventRecorder events,
      SyncerObserver observer,
      AppliedHashes hashes,
      StatusWriter statusWriter) {
    this.settings = settings;
    this.statusWriter = statusWriter;
    this.clock = clock;
    this.scheduler = scheduler;
    this.view = view;
    this.writer = writer;
    this.observer = observer;
    this.problems = new ProblemReports(events);
    this.claimReports = new ClaimReports(events, counters, clock.now());
    this.hashes = hashes;
    this.budget = new WriteBudget(settings.writeQps(), settings.writeBurst(), clock.now());
    this.resyncBudget =
        new WriteBudget(
            resyncRate(),
            Math.max(1, (int) (settings.writeBurst() * settings.resyncShare())),
            clock.now());
    this.inFlight = new InFlight(settings.maxInFlight());
    this.resyncWindow = settings.resyncSpread();
    this.resyncs = new ResyncSlots(settings.resyncSpread(), clock.now());
  }

  /** Once the informers have synced: every pair the view shows is reconciled once. */
  public void start() {
    view.routingResources().forEach(this::reportValidity);
    view.routingResources().forEach(r -> statuses.changed(r.id(), afterDebounce()));
    Instant due = afterDebounce();
    for (Validated resource : view.routingResources()) {
      for (ObservedNamespace ns : view.namespaces()) {
        enqueue(new Pair(resource.id(), ns.name()), due, Lane.START);
      }
    }
    requestWake();
  }

  public void onResourceChanged(ResourceId id) {
    resolved.remove(id);
    view.routingResource(id).ifPresent(this::reportValidity);
    statuses.changed(id, clock.now());
    enqueueResource(id);
    requestWake();
  }

  /** Its Secrets go with it through their ownerReference: the garbage collector's job. */
  public void onResourceDeleted(ResourceId id) {
    resolved.remove(id);
    for (ObservedNamespace ns : view.namespaces()) {
      forget(new Pair(id, ns.name()));
    }
    written.removeIf(pair -> pair.resource().equals(id));
    problems.forget(id);
    statuses.forget(id);
  }

  /** A namespace created, labelled or unlabelled: it may enter or leave a scope. */
  public void onNamespaceChanged(String namespace) {
    for (Validated resource : view.routingResources()) {
      enqueue(new Pair(resource.id(), namespace), afterDebounce(), Lane.EVENT);
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
  public void onPodChanged(RewrittenPod before, RewrittenPod after) {
    RewrittenPod any = after != null ? after : before;
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
    String namespace = any.namespace();
    for (ResourceId id : rewriters) {
      Pair pair = new Pair(id, namespace);
      if (before != null && before.live()) {
        startGraceOf(pair, before);
      }
      enqueue(pair, afterDebounce(), Lane.EVENT);
    }
    if (after == null) {
      claimReports.forget(before);
    }
    requestWake();
  }

  /**
   * The entries a pod used until now keep their grace even if no reconcile saw the pod, provided
   * its claim counted: a forged pod created and deleted must not start a grace either.
   */
  private void startGraceOf(Pair pair, RewrittenPod pod) {
    Optional<ObservedNamespace> namespace = view.namespace(pair.namespace());
    if (namespace.isEmpty() || !settings.targeting().serves(namespace.get().labels())) {
      return;
    }
    view.routingResource(pair.resource())
        .filter(Validated.Valid.class::isInstance)
        .map(v -> ((Validated.Valid) v).resource())
        .filter(r -> r.rewritePolicy() == RewritePolicy.ON_FAILURE)
        .ifPresent(
            resource ->
                Claims.judge(resource, namespace.get().labels(), List.of(pod)).recognized().stream()
                    .filter(Entry::injects)
                    .forEach(
                        entry ->
                            clocks.put(
                                pair,
                                clocks
                                    .getOrDefault(pair, GraceClocks.NONE)
                                    .sawNeeded(entry.authsKey(), clock.now()))));
  }

  /** A Secret of the cluster resource namespace was created, changed or deleted. */
  public void onClusterSecretChanged(String name) {
    resolved.clear();
    List<Pair> queued = new ArrayList<>();
    for (Validated validated : view.routingResources()) {
      if (validated instanceof Validated.Valid valid && refersTo(valid.resource(), name)) {
        queued.addAll(enqueueResource(valid.id()));
      }
    }
    propagations.changed(clock.now(), queued);
    requestWake();
  }

  /**
   * The driver's periodic resync: every pair owes a forced apply, which bypasses the hash and so
   * restores a Secret someone else deleted; unchanged content is a no-op on the API server. With a
   * resync spread, each pair is due at its own slot within the window, stretched when the pairs
   * that hold a Secret (and those the start's pass has still to apply) cannot all be applied in it
   * at the resync's share of the write budget.
   */
  public void onResync() {
    resolved.clear();
    pace(pairsToResync());
    Instant from = afterDebounce();
    for (Validated resource : view.routingResources()) {
      for (ObservedNamespace ns : view.namespaces()) {
        Pair pair = new Pair(resource.id(), ns.name());
        enqueue(pair, resyncs.owe(pair, from), Lane.RESYNC);
      }
    }
    requestWake();
  }

  /**
   * Processes the pairs that are due. Spurious or late wake-ups are harmless. When a pair needs a
   * write and the write limit has no token left, it goes back to the queue and the rest stay there:
   * the next wake-up comes with the next token, or with the next answer when as many applies as
   * allowed are in flight. A reconcile that needs no write costs no token, so only writes are
   * paced. A pair whose apply is in flight waits for its answer before it is reconciled again.
   */
  public void onWakeup() {
    wakeRequested = null;
    Instant now = clock.now();
    Map<ResourceId, EntryCredentials> resolved = this.resolved;
    paused = false;
    while (!paused) {
      Optional<WorkQueue.Item> item = nextDue(now);
      if (item.isEmpty()) {
        break;
      }
      if (inFlight.holds(item.get().pair())) {
        inFlight.park(item.get());
        continue;
      }
      Lane lane = item.get().lane();
      observer.reconcileStarted(lane);
      try {
        Outcome outcome = reconcile(item.get(), now, resolved);
        if (outcome != Outcome.PUT_BACK) {
          observer.waited(lane, Duration.between(item.get().due(), now));
        }
        if (outcome != Outcome.PUT_BACK && outcome != Outcome.SENT) {
          settled(item.get().pair(), now, outcome);
        }
      } finally {
        observer.reconcileEnded(lane);
      }
    }
    // Statuses take what the Secrets left of the main budget; a resync stopped by its own share
    // leaves them the rest (and a status left due would wake the core at once, again and again).
    writeStatuses(now);
    requestWake();
  }

  /**
   * Event work first. Then a resync slot that is due, while the resync has its share of the budget
   * left: its share is also what it is owed, so slots that fall due during the start's pass are
   * applied on time instead of piling up behind it (at 10,000 pods, a fifth of the pairs: a backlog
   * that a resync using nine tenths of its share clears at under one pair a second, which pushed
   * the window's last pairs past its end). Then the start's pass, with what is left.
   */
  private Optional<WorkQueue.Item> nextDue(Instant now) {
    return queue
        .pollDue(now, Lane.EVENT)
        .or(() -> resyncBudget.hasToken(now) ? queue.pollDue(now, Lane.RESYNC) : Optional.empty())
        .or(() -> queue.pollDue(now, Lane.START));
  }

  /**
   * The statuses due, after every due Secret: each costs a write token, and only what is left once
   * the Secrets had theirs (a status may wait; a credential should not).
   */
  private void writeStatuses(Instant now) {
    for (ResourceId id : statuses.dueBy(now)) {
      Optional<Validated> resource = view.routingResource(id);
      if (resource.isEmpty()) {
        statuses.forget(id);
        continue;
      }
      StatusWriter.Status status = statuses.desired(resource.get(), now);
      if (!statuses.needsWrite(status)) {
        statuses.settled(id);
        continue;
      }
      if (!budget.hasToken(now)) {
        if (!paused) {
          counters.writesDeferred++; // a Secret deferred on this wake-up was counted already
        }
        return; // stays due; the next wake-up comes with the next token
      }
      budget.take(now);
      counters.statusWrites++;
      if (statusWriter.apply(status)) {
        statuses.wrote(status, now);
      } else {
        counters.statusWriteFailures++;
        statuses.failed(id, now);
      }
    }
  }

  /**
   * The resync period in effect: the spread's window, longer than the configured period when the
   * resync's share of the write budget cannot apply every pair within it; zero without a spread.
   */
  public Duration resyncPeriod() {
    return resyncWindow;
  }

  private double resyncRate() {
    return settings.writeQps() * settings.resyncShare();
  }

  /**
   * The pairs a resync pass will apply: those this process wrote, and those the start's pass has
   * still to take that will hold a Secret: an Always resource's, or an OnFailure resource's in a
   * namespace where a pod it rewrote lives. Counting every pair the start's pass has left would
   * stretch a resync that comes during it for the pairs that never hold a Secret (three in four at
   * the scale harness's size).
   */
  private int pairsToResync() {
    return written.size() + queue.count(Lane.START, this::mayHoldASecret);
  }

  private boolean mayHoldASecret(Pair pair) {
    Optional<Validated> found = view.routingResource(pair.resource());
    if (found.isEmpty() || !(found.get() instanceof Validated.Valid valid)) {
      return false;
    }
    if (valid.resource().rewritePolicy() == RewritePolicy.ALWAYS) {
      return true;
    }
    return view.pods(pair.namespace()).stream()
        .anyMatch(pod -> RewrittenPods.rewriters(pod).contains(pair.resource()));
  }

  /**
   * Uses the window that {@code pairs} need for the slots from now on, saying so once when it
   * changes.
   */
  private void pace(int pairs) {
    Duration window = ResyncPace.window(settings.resyncSpread(), pairs, resyncRate());
    if (window.equals(resyncWindow)) {
      return;
    }
    if (window.compareTo(settings.resyncSpread()) > 0) {
      LOG.log(
          Level.WARNING,
          "resync stretched to every {0} instead of every {1}: {2} pairs at {3} writes/s"
              + " (--resync-share {4} of --api-qps {5}) do not fit in the period; raise --api-qps"
              + " or --resync-share to shorten it",
          window,
          settings.resyncSpread(),
          pairs,
          resyncRate(),
          settings.resyncShare(),
          settings.writeQps());
    } else {
      LOG.log(Level.INFO, "resync back to every {0}", window);
    }
    resyncWindow = window;
    resyncs.window(window);
  }

  public SyncerCounters counters() {
    return counters;
  }

  /**
   * Pairs waiting for a reconcile: debounced, retried, waiting for a grace to end, a resync, or the
   * answer of their apply in flight.
   */
  public int queueDepth() {
    return queue.size() + inFlight.parked();
  }

  /** Applies sent and not yet answered. */
  public int appliesInFlight() {
    return inFlight.size();
  }

  /** The figures of one lane of the work queue, now. */
  public LaneStats queueStats(Lane lane) {
    return queue.stats(lane, clock.now());
  }

  /** The figures of every lane of the work queue, now. */
  public Map<Lane, LaneStats> queueStats() {
    Map<Lane, LaneStats> stats = new EnumMap<>(Lane.class);
    for (Lane lane : Lane.values()) {
      stats.put(lane, queueStats(lane));
    }
    return stats;
  }

  private Outcome reconcile(
      WorkQueue.Item item, Instant now, Map<ResourceId, EntryCredentials> resolved) {
    Pair pair = item.pair();
    counters.reconciles++;
    Optional<Validated> found = view.routingResource(pair.resource());
    Optional<ObservedNamespace> namespace = view.namespace(pair.namespace());
    if (found.isEmpty() || namespace.isEmpty()) {
      forget(pair);
      if (found.isEmpty()
          && namespace.isPresent()
          && settings.targeting().serves(namespace.get().labels())) {
        claimReports.report(
            Claims.ofMissing(pair.resource(), view.pods(pair.namespace())).notRecognized(), now);
      }
      return Outcome.NO_WRITE;
    }
    if (!(found.get() instanceof Validated.Valid valid)) {
      return Outcome.NO_WRITE; // reported when it changed; its Secrets keep their last content
    }
    if (namespace.get().terminating()) {
      return Outcome.NO_WRITE; // terminating: writes are refused, the Secret goes with it
    }
    RoutingResource resource = valid.resource();
    Hold hold =
        Hold.keysToHold(
            resource,
            namespace.get().labels(),
            view.pods(pair.namespace()),
            settings.targeting(),
            clocks.getOrDefault(pair, GraceClocks.NONE),
            settings.grace(),
            now);
    claimReports.report(hold.notRecognized(), now);
    if (hold.clocks().isEmpty()) {
      clocks.remove(pair);
    } else {
      clocks.put(pair, hold.clocks());
    }
    hold.nextExpiry().ifPresent(expiry -> queue.enqueue(pair, expiry, Lane.EVENT));
    boolean wanted = !hold.keys().isEmpty();
    if (!wanted && !written.contains(pair)) {
      return Outcome.NO_WRITE; // never ours in this process: left as is (the restart leftovers)
    }
    EntryCredentials credentials =
        resolved.computeIfAbsent(resource.id(), id -> resolveAndReport(resource));
    DockerConfig content = wanted ? contentOf(credentials, hold.keys()) : DockerConfig.empty();
    if (DesiredSecrets.dataBytes(content) > DesiredSecrets.MAX_DATA_BYTES) {
      reportTooLarge(resource, pair, content);
      return Outcome.NO_WRITE;
    }
    problems.report(
        resource.id(), resource.uid(), ProblemReports.SECRET_TOO_LARGE, pair.namespace(), Set.of());
    long hash = DesiredSecrets.hash(resource, pair.namespace(), content);
    if (!resyncs.isOwed(pair, now) && !hashes.needsApply(pair, hash)) {
      counters.appliesSkipped++;
      return Outcome.NO_WRITE;
    }
    return apply(item, resource, content, hash, now);
  }

  /** What an apply in flight was sent for, to record when its answer comes. */
  private record Sent(
      Pair pair,
      Lane lane,
      RoutingResource resource,
      String secretName,
      long hash,
      boolean holds) {}

  private Outcome apply(
      WorkQueue.Item item, RoutingResource resource, DockerConfig content, long hash, Instant now) {
    Pair pair = item.pair();
    boolean resync = item.lane() == Lane.RESYNC;
    // A resync pair comes with a token of its share (nextDue); the main budget may have none left.
    if (inFlight.isFull() || !budget.hasToken(now)) {
      // Keeps its place in line.
      queue.putBack(item);
      if (!inFlight.isFull()) {
        counters.writesDeferred++;
      }
      paused = true;
      return Outcome.PUT_BACK;
    }
    Secret secret = DesiredSecrets.desiredSecret(resource, pair.namespace(), content);
    counters.appliesSent++;
    budget.take(now);
    if (resync) {
      resyncBudget.take(now);
    }
    Sent sent =
        new Sent(
            pair,
            item.lane(),
            resource,
            secret.getMetadata().getName(),
            hash,
            !content.auths().isEmpty());
    inFlight.sent(pair);
    writer.apply(secret, outcome -> answered(sent, outcome));
    return Outcome.SENT;
  }

  /** The API server answered an apply: records it, and lets the pair's next reconcile run. */
  private void answered(Sent sent, SecretWriter.Outcome outcome) {
    Instant now = clock.now();
    Pair pair = sent.pair();
    InFlight.Answer answer = inFlight.answered(pair);
    if (outcome instanceof SecretWriter.Refused) {
      counters.applyFailures++;
    }
    if (answer.forgotten()) {
      answer.parked().ifPresent(queue::putBack);
    } else {
      Outcome recorded = record(sent, outcome, now);
      settled(pair, now, recorded);
      // After a refusal a parked reconcile waits for the backoff too.
      answer
          .parked()
          .ifPresent(
              parked -> {
                if (recorded == Outcome.RETRYING) {
                  enqueue(pair, parked.due(), parked.lane());
                } else {
                  queue.putBack(parked);
                }
              });
    }
    requestWake();
  }

  private Outcome record(Sent sent, SecretWriter.Outcome outcome, Instant now) {
    Pair pair = sent.pair();
    RoutingResource resource = sent.resource();
    if (outcome instanceof SecretWriter.Refused refused) {
      hashes.forget(pair);
      if (refused.namespaceTerminating()) {
        return Outcome.NO_WRITE;
      }
      Retry retry = Retry.after(retries.get(pair), now, settings.retryBase(), settings.retryCap());
      retries.put(pair, retry);
      // A change queued while the apply was in flight waits for the backoff too.
      Optional<WorkQueue.Item> waiting = queue.take(pair);
      queue.retry(pair, retry.notBefore(), sent.lane());
      waiting.ifPresent(w -> enqueue(pair, w.due(), w.lane()));
      LOG.log(
          Level.WARNING,
          "apply of {0} refused ({1} {2}), retry in {3}: {4}",
          pair,
          refused.code(),
          refused.reason(),
          Duration.between(now, retry.notBefore()),
          refused.message());
      if (refused.code() == 403 || refused.code() == 422) {
        problems.report(
            resource.id(),
            resource.uid(),
            ProblemReports.WRITE_REFUSED,
            pair.namespace(),
            Set.of(
                "writing "
                    + sent.secretName()
                    + " in namespace "
                    + pair.namespace()
                    + " was refused: "
                    + refused.message()));
      }
      return Outcome.RETRYING;
    }
    written.add(pair);
    statuses.holds(pair, sent.holds(), now);
    hashes.applied(pair, sent.hash());
    if (retries.remove(pair) != null) {
      problems.report(
          resource.id(), resource.uid(), ProblemReports.WRITE_REFUSED, pair.namespace(), Set.of());
    }
    return Outcome.APPLIED;
  }

  /** After a reconcile that was not put back: the pair's resync and the propagations it ends. */
  private void settled(Pair pair, Instant now, Outcome outcome) {
    resyncs.settle(pair, now, outcome.applied).ifPresent(at -> enqueue(pair, at, Lane.RESYNC));
    if (outcome.settled) {
      propagations.settled(pair, now, outcome.applied).forEach(observer::propagated);
    }
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

  private static boolean refersTo(RoutingResource resource, String secretName) {
    return resource.entries().stream()
        .anyMatch(e -> e.auth() != null && secretName.equals(e.auth().secretRefName()));
  }

  /** Every pair of the resource, as event work; returns them. */
  private List<Pair> enqueueResource(ResourceId id) {
    List<Pair> pairs = new ArrayList<>();
    Instant due = afterDebounce();
    for (ObservedNamespace ns : view.namespaces()) {
      Pair pair = new Pair(id, ns.name());
      enqueue(pair, due, Lane.EVENT);
      pairs.add(pair);
    }
    return pairs;
  }

  private Instant afterDebounce() {
    return clock.now().plus(settings.debounce());
  }

  /**
   * Queues the pair, but never before a failing pair's backoff ends: events that keep coming must
   * not turn the retry of a refused write into a tight loop.
   */
  private void enqueue(Pair pair, Instant due, Lane lane) {
    Retry retry = retries.get(pair);
    queue.enqueue(pair, retry == null ? due : retry.notEarlierThan(due), lane);
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  /** The earlier of two times, either of which may be null (none). */
  private static Instant earlier(Instant a, Instant b) {
    if (a == null) {
      return b;
    }
    return b == null || a.isBefore(b) ? a : b;
  }

  private void forget(Pair pair) {
    queue.forget(pair);
    inFlight.forget(pair);
    clocks.remove(pair);
    hashes.forget(pair);
    retries.remove(pair);
    resyncs.forget(pair);
    written.remove(pair);
    statuses.holds(pair, false, clock.now());
    propagations.settled(pair, clock.now(), false).forEach(observer::propagated);
  }

  /**
   * Asks for a wake-up when the next work is due and a token is there for it. While as many applies
   * as allowed are in flight, queued pairs wait for an answer, which asks again.
   */
  private void requestWake() {
    Instant now = clock.now();
    boolean full = inFlight.isFull();
    Optional<Instant> resync =
        full
            ? Optional.empty()
            : queue.nextDue(Lane.RESYNC).map(due -> later(due, resyncBudget.nextTokenAt(now)));
    Instant queued =
        full
            ? null
            : earlier(
                queue.nextDue(Lane.EVENT).orElse(null), queue.nextDue(Lane.START).orElse(null));
    Instant other = earlier(queued, statuses.nextDue().orElse(null));
    Optional.ofNullable(earlier(resync.orElse(null), other))
        .map(due -> budget.hasToken(now) ? due : later(due, budget.nextTokenAt(now)))
        .ifPresent(
            due -> {
              if (wakeRequested == null || due.isBefore(wakeRequested)) {
                wakeRequested = due;
                scheduler.wakeAt(due);
              }
            });
  }
}
