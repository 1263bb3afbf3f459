package io.kuik.syncer;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kuik.kube.syncer.Records;
import io.kuik.model.Auth;
import io.kuik.model.DockerConfig;
import io.kuik.model.DockerConfigSecret;
import io.kuik.model.Entry;
import io.kuik.model.EntryForm;
import io.kuik.model.InvalidDockerConfigException;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import io.kuik.model.SecretNames;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The unit tests' executor of the core's effects: a clock that jumps from one timer the core set to
 * the next, an in-memory informer view, a server that keeps what was applied as the API server
 * would (and can refuse), and lists of the Events and status writes. Once started, every change a
 * test makes is announced to the core after the view shows it, as the intake does.
 *
 * <p>The server takes an apply or a status write when it is sent, and its answer reaches the core
 * after the apply latency (none unless a test sets one), as the production executor delivers it:
 * after the input that sent it was handled, before any timer due at the same time.
 */
final class SyncerHarness implements InformerView, Effect.Executor {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final String CLUSTER_RESOURCE_NAMESPACE = "kuik-system";

  /** One apply the core sent. */
  record Apply(Instant at, String namespace, String name, DockerConfig content, boolean refused) {}

  /** One status write the core sent, and whether the server took it. */
  record Written(Instant at, RoutingStatus status, boolean taken) {}

  /** One Event the core recorded. */
  record Recorded(
      Instant at,
      ResourceId resource,
      Effect.RecordEvent.Type type,
      String reason,
      String message) {}

  /** One Event the core recorded on a pod. */
  record PodEvent(
      Instant at,
      String namespace,
      String pod,
      String uid,
      Effect.RecordEvent.Type type,
      String reason,
      String message) {}

  private Instant now = T0;
  private final TreeMap<Instant, List<Timer>> timers = new TreeMap<>();
  private final Map<ResourceId, Validated> resources = new LinkedHashMap<>();
  private final Map<String, Namespace> namespaces = new TreeMap<>();
  private final Map<String, Map<String, Pod>> pods = new TreeMap<>();
  private final Map<String, Secret> sources = new TreeMap<>();
  private final Map<String, DockerConfig> stored = new TreeMap<>();
  private final List<Apply> applies = new ArrayList<>();
  private final List<Recorded> events = new ArrayList<>();
  private final List<PodEvent> podEvents = new ArrayList<>();
  private final List<Effect.ReleaseGate> releases = new ArrayList<>();
  private Answer releaseAnswer = Answer.APPLIED;
  private final List<Written> statuses = new ArrayList<>();
  private final List<Effect> effects = new ArrayList<>();
  private final List<io.kuik.model.CredentialTrial> trials = new ArrayList<>();
  private Function<io.kuik.model.CredentialTrial, io.kuik.model.TrialVerdict> registries;
  private Duration trialLatency = Duration.ZERO;
  private final List<Effect.MintCredential> mints = new ArrayList<>();
  private final List<Effect.StoreProviderCredential> stores = new ArrayList<>();
  private Function<Effect.MintCredential, io.kuik.model.MintResult> plugins;
  private Duration mintLatency = Duration.ZERO;
  private boolean storesRefused;
  private boolean statusTaken = true;
  private Function<Secret, Answer> server = secret -> Answer.APPLIED;
  private final List<Instant> releasedAt = new ArrayList<>();
  private Duration applyLatency = Duration.ZERO;
  private int wakeupsAsked;
  private int sourceReads;
  private final TreeMap<Instant, List<Input>> answers = new TreeMap<>();
  private boolean started;
  private final SecretSyncer syncer;

  /** The settings as given: {@link SyncerSettings#defaults} resync every 10 minutes. */
  SyncerHarness(SyncerSettings settings) {
    this(settings, SyncerObserver.NONE, new AppliedHashes());
  }

  SyncerHarness(SyncerSettings settings, SyncerObserver observer, AppliedHashes hashes) {
    this.syncer = new SecretSyncer(settings, this, observer, hashes);
  }

  /**
   * The default settings, installed in kuik-system, without the resync ({@code --resync-period
   * 0s}): a test of the resync sets its period.
   */
  static SyncerHarness withDefaults() {
    return new SyncerHarness(noResync());
  }

  /** The default settings without the resync. */
  static SyncerSettings noResync() {
    return SyncerSettings.defaults(CLUSTER_RESOURCE_NAMESPACE).withResyncPeriod(Duration.ZERO);
  }

  SecretSyncer syncer() {
    return syncer;
  }

  // ---- the executor -----------------------------------------------------------------------

  /** The informers have synced: the core starts, and hears of every change from now on. */
  SyncerHarness start() {
    started = true;
    handle(new Input.Started());
    deliverAnswers();
    return this;
  }

  /** Hands the core one input now and carries out what it returns. */
  private void handle(Input input) {
    for (Effect effect : syncer.handle(input, now)) {
      effects.add(effect);
      effect.carryOut(this);
    }
  }

  /** As the intake: before the start, changes only fill the view, which the start reads. */
  private void announce(Input input) {
    if (started) {
      handle(input);
      deliverAnswers();
    }
  }

  /** From now on, each apply's answer reaches the core this long after it was sent. */
  SyncerHarness applyLatency(Duration latency) {
    applyLatency = latency;
    return this;
  }

  /** Hands the core every answer due by now, in the order they were sent. */
  private void deliverAnswers() {
    while (!answers.isEmpty() && !answers.firstKey().isAfter(now)) {
      List<Input> due = answers.pollFirstEntry().getValue();
      due.forEach(this::handle);
    }
  }

  /** Fires every timer and delivers every answer due within {@code duration}, then stops there. */
  SyncerHarness advance(Duration duration) {
    Instant end = now.plus(duration);
    while (true) {
      deliverAnswers();
      Instant wake = timers.isEmpty() ? null : timers.firstKey();
      Instant answer = answers.isEmpty() ? null : answers.firstKey();
      if (answer != null && (wake == null || !answer.isAfter(wake))) {
        if (answer.isAfter(end)) {
          break;
        }
        now = later(now, answer);
        continue; // delivered first: an answer at a timer's time comes before it
      }
      if (wake == null || wake.isAfter(end)) {
        break;
      }
      if (wake.isAfter(now)) {
        now = wake;
      }
      for (Timer timer : timers.pollFirstEntry().getValue()) {
        handle(new Input.TimerFired(timer));
      }
    }
    now = end;
    return this;
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  SyncerHarness advanceSeconds(double seconds) {
    return advance(Duration.ofMillis(Math.round(seconds * 1000)));
  }

  /** From now on the API server answers every apply with {@code answer}. */
  void serverAnswers(Function<Secret, Answer> answer) {
    server = answer;
  }

  /** Every effect the core returned so far, in order. */
  List<Effect> effects() {
    return List.copyOf(effects);
  }

  /** The figures of one lane of the core's work queue, now. */
  LaneStats laneStats(Lane lane) {
    return syncer.queueStats(now).get(lane);
  }

  // ---- the cluster, as people change it ---------------------------------------------------

  /** Creates or relabels a namespace; labels as {@code key=value}. */
  void applyNamespace(String name, String... labels) {
    Map<String, String> map = new TreeMap<>();
    for (String label : labels) {
      String[] kv = label.split("=", 2);
      map.put(kv[0], kv[1]);
    }
    namespaces.put(
        name,
        new NamespaceBuilder()
            .withNewMetadata()
            .withName(name)
            .withLabels(map)
            .endMetadata()
            .build());
    announce(new Input.NamespaceChanged(name));
  }

  void terminateNamespace(String name) {
    Namespace ns = namespaces.get(name);
    ns.getMetadata().setDeletionTimestamp(now.toString());
    announce(new Input.NamespaceChanged(name));
  }

  void deleteNamespace(String name) {
    namespaces.remove(name);
    pods.remove(name);
    stored.keySet().removeIf(key -> key.startsWith(name + "/"));
    announce(new Input.NamespaceDeleted(name));
  }

  void resource(RoutingResource resource) {
    resource(new Validated.Valid(resource));
  }

  void resource(Validated resource) {
    resources.put(resource.id(), resource);
    announce(new Input.ResourceChanged(resource.id()));
  }

  /** The resource and, through the garbage collector, its Secrets. */
  void deleteResource(ResourceId id) {
    resources.remove(id);
    String name = SecretNames.injected(id.kind().kind(), id.name());
    stored.keySet().removeIf(key -> key.endsWith("/" + name));
    announce(new Input.ResourceDeleted(id));
  }

  void source(String name, DockerConfig config) {
    sources.put(name, dockerConfigSecret(name, config.toJson()));
    announce(new Input.SourceChanged(name));
  }

  void source(String name, Secret secret) {
    sources.put(name, secret);
    announce(new Input.SourceChanged(name));
  }

  void deleteSource(String name) {
    sources.remove(name);
    announce(new Input.SourceChanged(name));
  }

  /** A pod is created, or changes. */
  void pod(Pod pod) {
    String ns = pod.getMetadata().getNamespace();
    Pod before =
        pods.computeIfAbsent(ns, n -> new TreeMap<>()).put(pod.getMetadata().getName(), pod);
    announce(new Input.PodChanged(record(before), record(pod)));
  }

  void deletePod(String namespace, String name) {
    Pod before = pods.getOrDefault(namespace, Map.of()).get(name);
    pods.get(namespace).remove(name);
    announce(new Input.PodChanged(record(before), null));
  }

  /** A person deletes a Secret the syncer wrote; the syncer hears nothing of it. */
  void personDeletes(String namespace, String name) {
    stored.remove(namespace + "/" + name);
  }

  // ---- what the API server holds ----------------------------------------------------------

  /** The content of a Secret in a namespace, as the API server holds it. */
  Optional<DockerConfig> stored(String namespace, String name) {
    return Optional.ofNullable(stored.get(namespace + "/" + name));
  }

  /** Every Secret the API server holds, {@code namespace/name} to its content as JSON. */
  Map<String, String> storedJson() {
    Map<String, String> json = new TreeMap<>();
    stored.forEach((key, config) -> json.put(key, config.toJson()));
    return json;
  }

  /** The auths keys of a Secret, empty when it holds none; absent when there is no Secret. */
  Optional<List<String>> keys(String namespace, String name) {
    return stored(namespace, name).map(c -> List.copyOf(new TreeMap<>(c.auths()).keySet()));
  }

  List<Apply> applies() {
    return applies;
  }

  List<Apply> applies(String namespace) {
    return applies.stream().filter(a -> a.namespace().equals(namespace)).toList();
  }

  List<Recorded> events() {
    return events;
  }

  List<Recorded> events(String reason) {
    return events.stream().filter(e -> e.reason().equals(reason)).toList();
  }

  /** Every gate release the core asked for, in order. */
  List<Effect.ReleaseGate> releases() {
    return releases;
  }

  /** From now on releases are answered so. */
  void releasesAnswered(Answer answer) {
    releaseAnswer = answer;
  }

  /** When each release of {@link #releases()} was sent. */
  List<Instant> releasedAt() {
    return releasedAt;
  }

  @Override
  public void release(Effect.ReleaseGate release) {
    releases.add(release);
    releasedAt.add(now);
    answers
        .computeIfAbsent(now.plus(applyLatency), at -> new ArrayList<>())
        .add(new Input.GateAnswered(release, releaseAnswer));
  }

  List<PodEvent> podEvents() {
    return podEvents;
  }

  // ---- the effects --------------------------------------------------------------------

  @Override
  public void wakeAt(Effect.WakeAt wake) {
    wakeupsAsked++;
    timers.computeIfAbsent(wake.timer().at(), at -> new ArrayList<>()).add(wake.timer());
  }

  /** Timers the core set so far. */
  int wakeupsAsked() {
    return wakeupsAsked;
  }

  Instant now() {
    return now;
  }

  // ---- the informers' view ----------------------------------------------------------------

  @Override
  public Collection<Validated> routingResources() {
    return List.copyOf(resources.values());
  }

  @Override
  public Optional<Validated> routingResource(ResourceId id) {
    return Optional.ofNullable(resources.get(id));
  }

  @Override
  public Collection<ObservedNamespace> namespaces() {
    return namespaces.values().stream().map(Records::namespace).toList();
  }

  @Override
  public Optional<ObservedNamespace> namespace(String name) {
    return Optional.ofNullable(namespaces.get(name)).map(Records::namespace);
  }

  @Override
  public Collection<RewrittenPod> pods(String namespace) {
    return pods.getOrDefault(namespace, Map.of()).values().stream().map(Records::pod).toList();
  }

  /** The core's record of a pod, as the production informer makes it. */
  private static RewrittenPod record(Pod pod) {
    return pod == null ? null : Records.pod(pod);
  }

  @Override
  public Optional<Secret> clusterSecret(String name) {
    sourceReads++;
    return Optional.ofNullable(sources.get(name));
  }

  /** How many times the core read a Secret of the cluster resource namespace from the view. */
  int sourceReads() {
    return sourceReads;
  }

  @Override
  public void apply(Effect.ApplySecret apply) {
    Secret secret = apply.secret();
    String ns = secret.getMetadata().getNamespace();
    String name = secret.getMetadata().getName();
    DockerConfig content = read(secret);
    Answer answer = server.apply(secret);
    applies.add(new Apply(now, ns, name, content, answer instanceof Answer.Refused));
    if (answer instanceof Answer.Applied) {
      stored.put(ns + "/" + name, content);
    }
    answers
        .computeIfAbsent(now.plus(applyLatency), at -> new ArrayList<>())
        .add(new Input.ApplyAnswered(apply, answer));
  }

  @Override
  public void write(Effect.WriteStatus write) {
    statuses.add(new Written(now, write.status(), statusTaken));
    Answer answer =
        statusTaken ? Answer.APPLIED : new Answer.Refused(503, "ServiceUnavailable", "later");
    answers
        .computeIfAbsent(now.plus(applyLatency), at -> new ArrayList<>())
        .add(new Input.StatusAnswered(write, answer));
  }

  /**
   * The registries try each credential: their verdict reaches the core after the trial latency
   * (none unless a test sets one). Until a test says how they answer, they never do: a trial stays
   * in flight, and the tests of other things see no status or Event of it.
   */
  @Override
  public void tryCredential(Effect.TryCredential trial) {
    trials.add(trial.trial());
    if (registries == null) {
      return;
    }
    answers
        .computeIfAbsent(now.plus(trialLatency), at -> new ArrayList<>())
        .add(new Input.TrialAnswered(trial, registries.apply(trial.trial())));
  }

  /** From now on the registries answer every trial with {@code verdict}. */
  SyncerHarness registriesAnswer(
      Function<io.kuik.model.CredentialTrial, io.kuik.model.TrialVerdict> verdict) {
    registries = verdict;
    return this;
  }

  /** From now on each trial's verdict reaches the core this long after it was sent. */
  SyncerHarness trialLatency(Duration latency) {
    trialLatency = latency;
    return this;
  }

  /** Every credential trial the core asked for, in order. */
  List<io.kuik.model.CredentialTrial> trials() {
    return List.copyOf(trials);
  }

  /**
   * The provider plugins run: their answer reaches the core after the mint latency (none unless a
   * test sets one). Until a test says how they answer, they never do.
   */
  @Override
  public void mint(Effect.MintCredential mint) {
    mints.add(mint);
    if (plugins == null) {
      return;
    }
    answers
        .computeIfAbsent(now.plus(mintLatency), at -> new ArrayList<>())
        .add(new Input.MintAnswered(mint, plugins.apply(mint)));
  }

  /**
   * The API server takes a provider credential's Secret (unless {@link #storesRefused}), which the
   * informer on the install namespace then shows the core.
   */
  @Override
  public void store(Effect.StoreProviderCredential store) {
    stores.add(store);
    Answer answer =
        storesRefused ? new Answer.Refused(503, "ServiceUnavailable", "later") : Answer.APPLIED;
    if (answer instanceof Answer.Applied) {
      sources.put(store.secret().getMetadata().getName(), store.secret());
    }
    answers
        .computeIfAbsent(now.plus(applyLatency), at -> new ArrayList<>())
        .add(new Input.StoreAnswered(store, answer));
    if (answer instanceof Answer.Applied) {
      answers
          .computeIfAbsent(now.plus(applyLatency), at -> new ArrayList<>())
          .add(new Input.SourceChanged(store.secret().getMetadata().getName()));
    }
  }

  /** From now on the plugins answer every mint with {@code result}. */
  SyncerHarness pluginsAnswer(Function<Effect.MintCredential, io.kuik.model.MintResult> result) {
    plugins = result;
    return this;
  }

  /** From now on each mint's answer reaches the core this long after it was asked for. */
  SyncerHarness mintLatency(Duration latency) {
    mintLatency = latency;
    return this;
  }

  /** From now on the server refuses the stores of provider credentials, or takes them. */
  void storesRefused(boolean refused) {
    storesRefused = refused;
  }

  /** Every mint the core asked for, in order. */
  List<Effect.MintCredential> mints() {
    return List.copyOf(mints);
  }

  /** Every store of a provider credential the core asked for, in order. */
  List<Effect.StoreProviderCredential> stores() {
    return List.copyOf(stores);
  }

  /** From now on the server takes status writes, or refuses them. */
  void statusWritesTaken(boolean taken) {
    statusTaken = taken;
  }

  /** Every status write so far, in order. */
  List<Written> statusWrites() {
    return List.copyOf(statuses);
  }

  /** The last status the server took for the resource. */
  Optional<RoutingStatus> status(ResourceId id) {
    RoutingStatus last = null;
    for (Written w : statuses) {
      if (w.taken() && w.status().resource().equals(id)) {
        last = w.status();
      }
    }
    return Optional.ofNullable(last);
  }

  @Override
  public void record(Effect.RecordEvent event) {
    if (event.target() instanceof Effect.RecordEvent.OnPod pod) {
      podEvents.add(
          new PodEvent(
              now,
              pod.namespace(),
              pod.name(),
              event.uid(),
              event.type(),
              event.reason(),
              event.message()));
    } else {
      events.add(
          new Recorded(now, event.resource(), event.type(), event.reason(), event.message()));
    }
  }

  private static DockerConfig read(Secret secret) {
    try {
      return DockerConfigSecret.read(secret, "applied Secret");
    } catch (InvalidDockerConfigException e) {
      throw new AssertionError("the core applied an unreadable Secret: " + e.getMessage());
    }
  }

  // ---- objects, written as a user would ---------------------------------------------------

  static Secret dockerConfigSecret(String name, String json) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(CLUSTER_RESOURCE_NAMESPACE)
        .endMetadata()
        .withType(DockerConfigSecret.TYPE)
        .addToData(
            DockerConfigSecret.KEY,
            Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)))
        .build();
  }

  static DockerConfig config(String key, String user, String password) {
    return new DockerConfig(Map.of(key, RegistryCredential.basic(user, password)));
  }

  static RoutingResource alternative(
      String name, RewritePolicy policy, LabelSelector namespaceSelector, Entry... entries) {
    return new RoutingResource(
        new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, name),
        "uid-" + name,
        null,
        namespaceSelector,
        policy,
        List.of(entries));
  }

  static Entry repository(int index, String path, String secretRef) {
    return new Entry(
        index, EntryForm.REPOSITORY, path, secretRef == null ? null : Auth.secretRef(secretRef));
  }

  static LabelSelector selector(String key, String value) {
    return new LabelSelectorBuilder().addToMatchLabels(key, value).build();
  }

  /**
   * A pod whose containers {@code c0, c1, …} run {@code images}, each rewritten by {@code
   * rewrittenBy} (none when null), in {@code phase} (none when null).
   */
  static Pod pod(
      String namespace, String name, ResourceId rewrittenBy, String phase, String... images) {
    List<Container> containers = new ArrayList<>();
    Map<String, String> by = new TreeMap<>();
    for (int i = 0; i < images.length; i++) {
      containers.add(new ContainerBuilder().withName("c" + i).withImage(images[i]).build());
      if (rewrittenBy != null) {
        by.put("c" + i, rewrittenBy.toString());
      }
    }
    PodBuilder pod =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(namespace)
            .withUid("uid-" + namespace + "-" + name)
            .withAnnotations(
                by.isEmpty()
                    ? Map.of()
                    : Map.of(RewriteAnnotations.REWRITTEN_BY, RewriteAnnotations.writeMap(by)))
            .endMetadata()
            .withNewSpec()
            .withContainers(containers)
            .endSpec();
    if (phase != null) {
      pod.withNewStatus().withPhase(phase).endStatus();
    }
    return pod.build();
  }
}
