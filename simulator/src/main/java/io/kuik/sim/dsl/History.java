package io.kuik.sim.dsl;

import io.kuik.sim.hosts.SyncerHost;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Answer;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.Stage;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.trace.TraceRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The DSL's trace queries: what the syncer instances asked the API server and were handed by it,
 * asked of the typed trace (kinds, targets, answers), never of its printed lines; and the trace
 * itself for the explorer's checkers, its hash and its lines.
 */
public final class History {

  /** The first syncer instance's name in the trace, its alias. */
  public static final Actor SYNCER = new Actor("syncer");

  private final KuikWorld world;

  History(KuikWorld world) {
    this.world = world;
  }

  /** The requests of {@code helm test}'s pod, under the selftest's ServiceAccount. */
  public List<TraceRecord.Request> selftestRequests() {
    Actor selftest = new Actor("selftest");
    return trace().requests().stream().filter(r -> r.actor().equals(selftest)).toList();
  }

  /**
   * The pods whose claim of a rewrite the running syncer did not recognize, by the reason of the
   * metric kuik_syncer_rewrites_not_recognized, since it started.
   */
  public long rewritesNotRecognized(String reason) {
    return world
        .install()
        .syncer()
        .syncer()
        .map(core -> core.counters().rewritesNotRecognized().getOrDefault(reason, 0L))
        .orElse(0L);
  }

  /**
   * The credential trials the running syncer had answered, by the result of the metric
   * kuik_syncer_credential_trials_total ({@code accepted}, {@code refused}, {@code unreachable}).
   */
  public long credentialTrials(String result) {
    return world
        .install()
        .syncer()
        .syncer()
        .map(core -> core.counters().credentialTrials().getOrDefault(result, 0L))
        .orElse(0L);
  }

  /** The logins (credential trials) the registry {@code host} answered, in order, as traced. */
  public List<io.kuik.sim.trace.Note.RegistryNote> registryLogins(String host) {
    Actor registry = new Actor(host);
    return trace().records().stream()
        .filter(
            r ->
                r instanceof io.kuik.sim.trace.Note.RegistryNote note
                    && note.event() == io.kuik.sim.trace.Note.RegistryEvent.LOGIN
                    && note.host().equals(registry))
        .map(r -> (io.kuik.sim.trace.Note.RegistryNote) r)
        .toList();
  }

  /** The first syncer instance's requests. */
  public List<TraceRecord.Request> syncerRequests() {
    return requestsOf(world.install().syncer());
  }

  /** The first syncer instance's applies of Secrets, successful or not. */
  public List<TraceRecord.Request> syncerSecretApplies() {
    return syncerRequests().stream()
        .filter(r -> r.kind() == RequestKind.APPLY && r.target().isA(Resource.SECRETS))
        .toList();
  }

  /**
   * Where, in the trace's order, the pod's scheduling gate was first patched away and the Secret
   * first written (a successful request each); -1 for what did not happen.
   */
  public int[] gateAndSecretOrder(String namespace, String pod, String secret) {
    List<TraceRecord> all = world.cluster().trace().records();
    int gate = -1;
    int written = -1;
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i) instanceof TraceRecord.Request r && r.succeeded()) {
        if (gate < 0
            && r.kind() == RequestKind.PATCH
            && r.target().equals(Target.object(Resource.PODS, namespace, pod))) {
          gate = i;
        }
        if (written < 0
            && r.kind() == RequestKind.APPLY
            && r.target().equals(Target.secret(namespace, secret))) {
          written = i;
        }
      }
    }
    return new int[] {gate, written};
  }

  /** The first syncer instance's applies of one Secret, successful or not. */
  public List<TraceRecord.Request> syncerApplies(String namespace, String secret) {
    return appliesTo(syncerRequests(), Target.secret(namespace, secret));
  }

  /** The applies one syncer instance sent to a Secret, successful or not. */
  public List<TraceRecord.Request> appliesOf(String instance, String namespace, String secret) {
    return appliesTo(
        requestsOf(world.install().syncer(instance)), Target.secret(namespace, secret));
  }

  public long syncerAppliesSince(Instant since) {
    return syncerSecretApplies().stream().filter(r -> !r.at().isBefore(since)).count();
  }

  /** The status writes the syncer sent for a routing resource, successful or not. */
  public List<TraceRecord.Request> syncerStatusWrites(String kind, String name) {
    Resource resource = new Resource(ClusterObjects.typeOf(kind).resource());
    return appliesTo(syncerRequests(), new Target(resource, "status", null, name, null));
  }

  /** The label selectors of the pod lists every syncer instance sent (null: none). */
  public List<String> syncerPodListSelectors() {
    return requestsOfEverySyncer().stream()
        .filter(r -> r.kind() == RequestKind.LIST && r.target().isA(Resource.PODS))
        .map(r -> r.target().selector())
        .toList();
  }

  /** Watch events of one pod handed to any syncer instance's informers. */
  public List<TraceRecord.WatchDelivery> syncerPodDeliveries(String namespace, String pod) {
    Set<Actor> syncers = everySyncerActor();
    Target target = Target.object(Resource.PODS, namespace, pod);
    List<TraceRecord.WatchDelivery> out = new ArrayList<>();
    for (TraceRecord r : trace().records()) {
      if (r instanceof TraceRecord.WatchDelivery delivery
          && syncers.contains(delivery.owner())
          && delivery.target().equals(target)) {
        out.add(delivery);
      }
    }
    return out;
  }

  /** Reads of Secrets (get, list, watch) the syncer made outside {@code namespace}. */
  public List<TraceRecord.Request> syncerSecretReadsOutside(String namespace) {
    return syncerRequests().stream()
        .filter(r -> r.kind().reads() && r.target().isA(Resource.SECRETS))
        .filter(r -> !r.target().isSecretIn(namespace))
        .toList();
  }

  /** Deletions sent by any syncer instance, refused or not: the syncer must never send one. */
  public List<TraceRecord.Request> syncerDeletes() {
    return requestsOfEverySyncer().stream().filter(r -> r.kind() == RequestKind.DELETE).toList();
  }

  /**
   * Writes of any syncer instance that an admission policy refused: any of them fails a healthy
   * scenario.
   */
  public List<TraceRecord.Request> syncerWritesRefusedByThePolicy() {
    return requestsOfEverySyncer().stream()
        .filter(
            r ->
                r.answer() instanceof Answer.Refused refused
                    && refused.stage() == Stage.ADMISSION_POLICY)
        .toList();
  }

  // ---- the trace itself -------------------------------------------------------------------------

  /** Every record so far, in order. */
  public List<TraceRecord> records() {
    return trace().records();
  }

  /** The trace's hash: one seed and one script give one hash. */
  public String hash() {
    return trace().hash();
  }

  /** A record as its timeline line. */
  public String line(TraceRecord record) {
    return trace().line(record);
  }

  private Trace trace() {
    return world.cluster().trace();
  }

  private static List<TraceRecord.Request> appliesTo(
      List<TraceRecord.Request> requests, Target target) {
    return requests.stream()
        .filter(r -> r.kind() == RequestKind.APPLY && r.target().equals(target))
        .toList();
  }

  private List<TraceRecord.Request> requestsOf(SyncerHost host) {
    Actor actor = trace().actorOf(host.identity());
    return trace().requests().stream().filter(r -> r.actor().equals(actor)).toList();
  }

  private List<TraceRecord.Request> requestsOfEverySyncer() {
    Set<Actor> syncers = everySyncerActor();
    return trace().requests().stream().filter(r -> syncers.contains(r.actor())).toList();
  }

  private Set<Actor> everySyncerActor() {
    return world.install().everySyncer().stream()
        .map(host -> trace().actorOf(host.identity()))
        .collect(Collectors.toSet());
  }
}
