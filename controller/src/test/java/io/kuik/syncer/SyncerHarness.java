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
import io.kuik.kube.Records;
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
import io.kuik.ports.Clock;
import io.kuik.ports.EventRecorder;
import io.kuik.ports.InformerView;
import io.kuik.ports.Scheduler;
import io.kuik.ports.SecretWriter;
import io.kuik.ports.StatusWriter;
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
 * The core on small fakes of its ports: a clock that jumps from one wake-up the core asked for to
 * the next, an in-memory informer view, a writer that keeps what was applied as the API server
 * would (and can refuse), and an event recorder. Once started, every change a test makes is
 * announced to the core after the view shows it, as the driver does; {@link #advance} also plays
 * the driver's periodic resync when one is set.
 *
 * <p>The server takes an apply when it is sent, and its answer reaches the core after the apply
 * latency (none unless a test sets one), as the driver delivers it: after the handler that sent it
 * has returned, before any wake-up due at the same time.
 */
final class SyncerHarness
    implements Clock, Scheduler, InformerView, SecretWriter, StatusWriter, EventRecorder {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final String CLUSTER_RESOURCE_NAMESPACE = "kuik-system";

  /** One apply the core sent. */
  record Apply(Instant at, String namespace, String name, DockerConfig content, boolean refused) {}

  /** One status write the core sent, and whether the server took it. */
  record Written(Instant at, Status status, boolean taken) {}

  /** One Event the core recorded. */
  record Recorded(Instant at, ResourceId resource, Type type, String reason, String message) {}

  /** One Event the core recorded on a pod. */
  record PodEvent(
      Instant at,
      String namespace,
      String pod,
      String uid,
      Type type,
      String reason,
      String message) {}

  private Instant now = T0;
  private final TreeMap<Instant, Integer> wakeups = new TreeMap<>();
  private final Map<ResourceId, Validated> resources = new LinkedHashMap<>();
  private final Map<String, Namespace> namespaces = new TreeMap<>();
  private final Map<String, Map<String, Pod>> pods = new TreeMap<>();
  private final Map<String, Secret> sources = new TreeMap<>();
  private final Map<String, DockerConfig> stored = new TreeMap<>();
  private final List<Apply> applies = new ArrayList<>();
  private final List<Recorded> events = new ArrayList<>();
  private final List<PodEvent> podEvents = new ArrayList<>();
  private final List<Written> statuses = new ArrayList<>();
  private boolean statusTaken = true;
  private Function<Secret, Outcome> server = secret -> new Applied();
  private Duration resyncPeriod = Duration.ZERO;
  private Duration applyLatency = Duration.ZERO;
  private int wakeupsAsked;
  private int sourceReads;
  private final TreeMap<Instant, List<Runnable>> answers = new TreeMap<>();
  private Instant nextResync;
  private boolean started;
  private final SecretSyncer syncer;

  SyncerHarness(SyncerSettings settings) {
    this(settings, SyncerObserver.NONE, new AppliedHashes());
  }

  SyncerHarness(SyncerSettings settings, SyncerObserver observer, AppliedHashes hashes) {
    this.syncer = new SecretSyncer(settings, this, this, this, this, this, observer, hashes, this);
  }

  /** The default settings, installed in kuik-system. */
  static SyncerHarness withDefaults() {
    return new SyncerHarness(SyncerSettings.defaults(CLUSTER_RESOURCE_NAMESPACE));
  }

  SecretSyncer syncer() {
    return syncer;
  }

  // ---- the driver -------------------------------------------------------------------------

  /** The informers have synced: the core starts, and hears of every change from now on. */
  SyncerHarness start() {
    started = true;
    syncer.start();
    deliverAnswers();
    return this;
  }

  /** As the driver: before the start, changes only fill the view, which the start reads. */
  private void announce(java.util.function.Consumer<SecretSyncer> change) {
    if (started) {
      change.accept(syncer);
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
      List<Runnable> due = answers.pollFirstEntry().getValue();
      due.forEach(Runnable::run);
    }
  }

  /** The driver calls {@link SecretSyncer#onResync()} every {@code period} from now. */
  SyncerHarness resyncEvery(Duration period) {
    resyncPeriod = period;
    nextResync = now.plus(period);
    return this;
  }

  /** Runs every wake-up and periodic resync due within {@code duration}, then stops there. */
  SyncerHarness advance(Duration duration) {
    Instant end = now.plus(duration);
    while (true) {
      deliverAnswers();
      Instant wake = wakeups.isEmpty() ? null : wakeups.firstKey();
      Instant answer = answers.isEmpty() ? null : answers.firstKey();
      boolean resyncFirst = nextResync != null && (wake == null || nextResync.isBefore(wake));
      Instant next = resyncFirst ? nextResync : wake;
      if (answer != null && (next == null || !answer.isAfter(next))) {
        if (answer.isAfter(end)) {
          break;
        }
        now = later(now, answer);
        continue; // delivered first: an answer at a wake-up's time comes before it
      }
      if (next == null || next.isAfter(end)) {
        break;
      }
      if (next.isAfter(now)) {
        now = next;
      }
      if (resyncFirst) {
        nextResync = nextResync.plus(resyncPeriod);
        syncer.onResync();
      } else {
        wakeups.pollFirstEntry();
        syncer.onWakeup();
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

  void resyncNow() {
    syncer.onResync();
    deliverAnswers();
  }

  /** From now on the API server answers every apply with {@code answer}. */
  void serverAnswers(Function<Secret, Outcome> answer) {
    server = answer;
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
    announce(core -> core.onNamespaceChanged(name));
  }

  void terminateNamespace(String name) {
    Namespace ns = namespaces.get(name);
    ns.getMetadata().setDeletionTimestamp(now.toString());
    announce(core -> core.onNamespaceChanged(name));
  }

  void deleteNamespace(String name) {
    namespaces.remove(name);
    pods.remove(name);
    stored.keySet().removeIf(key -> key.startsWith(name + "/"));
    announce(core -> core.onNamespaceDeleted(name));
  }

  void resource(RoutingResource resource) {
    resource(new Validated.Valid(resource));
  }

  void resource(Validated resource) {
    resources.put(resource.id(), resource);
    announce(core -> core.onResourceChanged(resource.id()));
  }

  /** The resource and, through the garbage collector, its Secrets. */
  void deleteResource(ResourceId id) {
    resources.remove(id);
    String name = SecretNames.injected(id.kind().kind(), id.name());
    stored.keySet().removeIf(key -> key.endsWith("/" + name));
    announce(core -> core.onResourceDeleted(id));
  }

  void source(String name, DockerConfig config) {
    sources.put(name, dockerConfigSecret(name, config.toJson()));
    announce(core -> core.onClusterSecretChanged(name));
  }

  void source(String name, Secret secret) {
    sources.put(name, secret);
    announce(core -> core.onClusterSecretChanged(name));
  }

  void deleteSource(String name) {
    sources.remove(name);
    announce(core -> core.onClusterSecretChanged(name));
  }

  /** A pod is created, or changes. */
  void pod(Pod pod) {
    String ns = pod.getMetadata().getNamespace();
    Pod before =
        pods.computeIfAbsent(ns, n -> new TreeMap<>()).put(pod.getMetadata().getName(), pod);
    announce(core -> core.onPodChanged(record(before), record(pod)));
  }

  void deletePod(String namespace, String name) {
    Pod before = pods.getOrDefault(namespace, Map.of()).get(name);
    pods.get(namespace).remove(name);
    announce(core -> core.onPodChanged(record(before), null));
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

  List<PodEvent> podEvents() {
    return podEvents;
  }

  // ---- ports ------------------------------------------------------------------------------

  @Override
  public Instant now() {
    return now;
  }

  @Override
  public void wakeAt(Instant at) {
    wakeupsAsked++;
    wakeups.merge(at, 1, Integer::sum);
  }

  /** Wake-ups the core asked for so far. */
  int wakeupsAsked() {
    return wakeupsAsked;
  }

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
  public void apply(Secret secret, java.util.function.Consumer<Outcome> answered) {
    String ns = secret.getMetadata().getNamespace();
    String name = secret.getMetadata().getName();
    DockerConfig content = read(secret);
    Outcome outcome = server.apply(secret);
    applies.add(new Apply(now, ns, name, content, outcome instanceof Refused));
    if (outcome instanceof Applied) {
      stored.put(ns + "/" + name, content);
    }
    answers
        .computeIfAbsent(now.plus(applyLatency), at -> new ArrayList<>())
        .add(() -> answered.accept(outcome));
  }

  @Override
  public boolean apply(Status status) {
    statuses.add(new Written(now, status, statusTaken));
    return statusTaken;
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
  Optional<Status> status(ResourceId id) {
    Status last = null;
    for (Written w : statuses) {
      if (w.taken() && w.status().resource().equals(id)) {
        last = w.status();
      }
    }
    return Optional.ofNullable(last);
  }

  @Override
  public void record(ResourceId resource, String uid, Type type, String reason, String message) {
    events.add(new Recorded(now, resource, type, reason, message));
  }

  @Override
  public void recordOnPod(
      String namespace, String pod, String uid, Type type, String reason, String message) {
    podEvents.add(new PodEvent(now, namespace, pod, uid, type, reason, message));
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
