package io.kuik.sim.hosts;

import io.fabric8.zjsonpatch.JsonPatch;
import io.kuik.kube.webhook.WebhookRuntimeSettings;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.PullSecretGate;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.ServedNamespaces;
import io.kuik.model.WriteBounds;
import io.kuik.routing.Router;
import io.kuik.routing.RoutingDecision;
import io.kuik.routing.RoutingIndex;
import io.kuik.sim.client.Informer;
import io.kuik.sim.trace.Note;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.EventRecorder;
import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.MutatingAdmission;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.registry.Registries;
import io.kuik.sim.world.validation.PodValidation;
import io.kuik.webhook.AdmissionHandler;
import io.kuik.webhook.GateBound;
import io.kuik.webhook.SyncerLease;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs the production pod webhook ({@link AdmissionHandler} over {@link Router}) in the simulated
 * API server's admission chain, as the chart registers it: pods on CREATE outside kuik's namespace
 * and kube-system, failurePolicy Ignore, a short timeout. Its informers run under the webhook's
 * ServiceAccount, and it probes the simulator's registries. A stopped webhook leaves pods unchanged
 * and admitted.
 */
public final class WebhookHost {

  /** The chart's MutatingWebhookConfiguration name. */
  public static final String NAME = "pods.routing.kuik.enix.io";

  /**
   * A namespaceSelector that leaves out these namespaces, as the chart's webhook configuration
   * writes it (chart/templates/webhook-configuration.yaml): for a webhook built without a render.
   */
  public static ObjectNode namespaceSelector(java.util.Collection<String> neverServed) {
    ObjectNode selector = Json.object();
    ObjectNode expression = selector.putArray("matchExpressions").addObject();
    expression.put("key", "kubernetes.io/metadata.name");
    expression.put("operator", "NotIn");
    var values = expression.putArray("values");
    neverServed.forEach(values::add);
    return selector;
  }

  /**
   * One pod creation the webhook routed, as the production handler tells its decision listener:
   * when, which pod, and the decision with every container's candidates in probe order.
   */
  public record Admission(Instant at, String namespace, String pod, RoutingDecision decision) {}

  private final ApiServer api;
  private final Identity identity;
  private final String clusterResourceNamespace;
  private final Registries registries;
  private final Duration timeout;
  private TypedCaches caches;
  private List<Informer> informers = List.of();
  private AdmissionHandler handler;
  private boolean running;
  private Consumer<Boolean> availability = ready -> {};
  private int incarnations;

  /** Pull secret first: the bound on the gate, null when off (the chart's default). */
  private Duration maxWait;

  /** The syncer's Lease it gates pods on (the production {@code --syncer-lease}). */
  private String syncerLease = "kuik-secret-syncer";

  /** The policy that bounds its pod patches; null: none to wait for (a bare test). */
  private WriteBounds.Policy podGates;

  private PolicyWatch podGatesWatch;

  /** The namespaces kuik serves, as the production {@code --excluded-namespaces} tells it. */
  private ServedNamespaces served;

  /** The webhook configuration's namespaceSelector. */
  private ObjectNode namespaceSelector;

  private SyncerLease lease;
  private GateBound bound;
  private EventRecorder events;
  private final List<Admission> admissions = new ArrayList<>();
  // The request being admitted, for the decision listener (one admission at a time).
  private RequestAttributes admitting;
  private ObjectNode admittingObject;

  public WebhookHost(
      ApiServer api,
      Identity identity,
      String clusterResourceNamespace,
      Registries registries,
      Duration timeout) {
    this.api = api;
    this.identity = identity;
    this.clusterResourceNamespace = clusterResourceNamespace;
    this.registries = registries;
    this.timeout = timeout;
    this.served = ServedNamespaces.allBut(clusterResourceNamespace);
    this.namespaceSelector = namespaceSelector(served.neverServed());
  }

  /**
   * As the chart runs the production webhook: its command line's settings ({@code told}), and the
   * namespaceSelector Helm rendered into the webhook configuration.
   */
  public static WebhookHost told(
      ApiServer api,
      Identity identity,
      WebhookRuntimeSettings told,
      ObjectNode namespaceSelector,
      Registries registries,
      Duration timeout) {
    WebhookHost host =
        new WebhookHost(api, identity, told.clusterResourceNamespace(), registries, timeout);
    host.served = told.served();
    host.namespaceSelector = namespaceSelector.deepCopy();
    if (told.pullSecretFirst() != null) {
      host.maxWait = told.pullSecretFirst().maxWait();
      host.syncerLease = told.pullSecretFirst().lease();
      host.podGates = told.pullSecretFirst().podGates();
    }
    return host;
  }

  /**
   * From the next start on, pull secret first ({@code pullSecretFirst.enabled=true}, {@code
   * pullSecretFirst.maxWait}): pods given a reference are gated while the syncer's Lease is fresh,
   * and those still gated {@code maxWait} after their creation are released with a Warning Event.
   */
  public WebhookHost pullSecretFirst(Duration bound) {
    this.maxWait = bound;
    return this;
  }

  /** Pods released by the bound in the running incarnation. */
  public long releasedByTheBound() {
    return bound == null ? 0 : bound.released();
  }

  public void start() {
    if (running) {
      return;
    }
    running = true;
    incarnations++;
    api.trace()
        .add(
            new Note.Incarnation(
                api.loop().now(),
                api.trace().actorOf(identity),
                Note.Process.WEBHOOK,
                Note.Edge.START,
                incarnations));
    TypedCaches fresh = new TypedCaches();
    caches = fresh;
    informers =
        List.of(
            informer(fresh, "imagealternatives", ResourceType.IMAGE_ALTERNATIVE, null),
            informer(fresh, "imagemirrors", ResourceType.IMAGE_MIRROR, null),
            informer(fresh, "namespaces", ResourceType.NAMESPACE, null),
            informer(fresh, "secrets", ResourceType.SECRET, clusterResourceNamespace));
    if (maxWait != null) {
      int incarnation = incarnations;
      lease = new SyncerLease();
      bound = new GateBound(maxWait, BOUND_RETRY);
      events = new EventRecorder(api, api.loop());
      List<Informer> all = new ArrayList<>(informers);
      all.add(
          HostInformers.feeding(
              api,
              identity,
              "webhook/pods",
              ResourceType.POD,
              null,
              LabelSelector.parse(RewriteAnnotations.REWRITTEN_SELECTOR),
              (type, before, after) -> gatedPod(before, after)));
      informers = List.copyOf(all);
      podGatesWatch =
          podGates == null
              ? null
              : new PolicyWatch(api, identity, "webhook", List.of(podGates), b -> {});
      if (podGatesWatch != null) {
        podGatesWatch.start();
      }
      readLease(incarnation);
      tick(incarnation);
    }
    informers.forEach(Informer::start);
    Router router =
        new Router(new SimulatedProber(registries), fresh::clusterSecret, api.loop()::now);
    handler =
        new AdmissionHandler(
            router,
            () -> RoutingIndex.ofValidated(fresh.routingResources()),
            served,
            ns -> fresh.namespace(ns).map(ObservedNamespace::labels),
            this::decided,
            () -> podGatesInPlace() && lease != null && lease.fresh(api.loop().now()));
    api.mutatingAdmission()
        .register(
            new MutatingAdmission(
                NAME,
                Set.of(ResourceType.POD),
                Set.of(Operation.CREATE),
                LabelSelector.of(namespaceSelector),
                MutatingAdmission.FailurePolicy.IGNORE,
                timeout,
                this::admit));
    api.mutatingAdmission().markDown(NAME, false);
    // It admits at once, as registered: ready from its start, in the simulator.
    availability.accept(true);
  }

  /**
   * From now on, tells {@code availability} when the webhook starts (ready) and stops: what its
   * Deployment's available replicas count.
   */
  public void reportAvailability(Consumer<Boolean> availability) {
    this.availability = availability;
  }

  /** The webhook's pods are gone: the API server's calls fail, and failurePolicy Ignore admits. */
  public void stop() {
    if (!running) {
      return;
    }
    running = false;
    api.trace()
        .add(
            new Note.Incarnation(
                api.loop().now(),
                api.trace().actorOf(identity),
                Note.Process.WEBHOOK,
                Note.Edge.STOP,
                incarnations));
    informers.forEach(Informer::stop);
    if (podGatesWatch != null) {
      podGatesWatch.stop();
    }
    api.mutatingAdmission().markDown(NAME, true);
    availability.accept(false);
  }

  public boolean running() {
    return running;
  }

  /** Every pod creation routed so far, in admission order, across incarnations. */
  public List<Admission> admissions() {
    return List.copyOf(admissions);
  }

  private void decided(RoutingDecision decision) {
    String pod = admitting.name();
    if (pod == null) {
      pod = Json.text(admittingObject, "metadata", "name");
    }
    admissions.add(new Admission(api.loop().now(), admitting.namespace(), pod, decision));
  }

  private MutatingAdmission.Response admit(AdmissionRequest request) {
    ObjectNode review = Json.object();
    review.put("apiVersion", "admission.k8s.io/v1");
    review.put("kind", "AdmissionReview");
    ObjectNode body = review.putObject("request");
    body.put("uid", "sim-" + api.loop().now().toEpochMilli());
    ObjectNode kind = body.putObject("kind");
    kind.put("group", "");
    kind.put("version", "v1");
    kind.put("kind", "Pod");
    ObjectNode resource = body.putObject("resource");
    resource.put("group", "");
    resource.put("version", "v1");
    resource.put("resource", "pods");
    body.put("namespace", request.attributes().namespace());
    body.put("operation", request.operation().name());
    body.put("dryRun", request.dryRun());
    body.putObject("userInfo").put("username", request.attributes().identity().user());
    body.set("object", request.object());

    admitting = request.attributes();
    admittingObject = request.object();
    byte[] answer = handler.handle(Json.write(review).getBytes(StandardCharsets.UTF_8));
    JsonNode response = Json.parse(new String(answer, StandardCharsets.UTF_8)).path("response");
    String patch = response.path("patch").asString(null);
    if (patch == null || patch.isEmpty()) {
      return MutatingAdmission.Response.allow();
    }
    JsonNode operations = Json.MAPPER.readTree(Base64.getDecoder().decode(patch));
    ObjectNode patched = (ObjectNode) JsonPatch.apply(operations, request.object());
    return new MutatingAdmission.Response(true, patched, null, Duration.ZERO);
  }

  /** How often the syncer's Lease is read, and the bound's due pods looked for. */
  static final Duration LEASE_PERIOD = Duration.ofSeconds(2);

  static final Duration TICK = Duration.ofSeconds(1);
  static final Duration BOUND_RETRY = Duration.ofSeconds(5);

  private void readLease(int incarnation) {
    if (!running || incarnation != incarnations) {
      return;
    }
    try {
      ObjectNode found =
          api.get(identity, ResourceType.LEASE, clusterResourceNamespace, syncerLease);
      String renewed = Json.text(found, "spec", "renewTime");
      long seconds = found.path("spec").path("leaseDurationSeconds").asLong(0);
      lease.observed(
          renewed == null
              ? null
              : new SyncerLease.Observed(Instant.parse(renewed), Duration.ofSeconds(seconds)));
    } catch (ApiException unreadable) {
      lease.observed(null);
    }
    api.loop()
        .schedule(LEASE_PERIOD, "webhook reads the syncer's lease", () -> readLease(incarnation));
  }

  private void gatedPod(ObjectNode before, ObjectNode after) {
    ObjectNode any = after != null ? after : before;
    GateBound.GatedPod pod = null;
    if (after != null && !Meta.deleting(after)) {
      int index = PullSecretGate.indexIn(PodValidation.gates(after));
      if (index >= 0) {
        pod =
            new GateBound.GatedPod(
                Meta.namespace(after),
                Meta.name(after),
                Meta.uid(after),
                Instant.parse(Json.text(after, "metadata", "creationTimestamp")),
                index);
      }
    }
    bound.podChanged(Meta.namespace(any), Meta.name(any), pod);
  }

  /** Every second: the pods past the bound are released, each with a Warning Event. */
  private void tick(int incarnation) {
    if (!running || incarnation != incarnations) {
      return;
    }
    if (!podGatesInPlace()) {
      // No patch while nothing bounds it: the gated pods wait for the policy.
      api.loop()
          .schedule(TICK, "webhook looks for gates past their bound", () -> tick(incarnation));
      return;
    }
    for (GateBound.GatedPod pod : bound.due(api.loop().now())) {
      int code;
      try {
        api.jsonPatch(
            identity,
            ResourceType.POD,
            pod.namespace(),
            pod.name(),
            Json.MAPPER.valueToTree(PullSecretGate.removal(pod.uid(), pod.index())),
            "kuik-webhook");
        code = 200;
      } catch (ApiException refused) {
        code = refused.code();
      }
      if (bound.answered(pod, code, api.loop().now())) {
        ObjectNode involved = Json.object();
        involved.put("apiVersion", "v1");
        involved.put("kind", "Pod");
        involved
            .putObject("metadata")
            .put("name", pod.name())
            .put("namespace", pod.namespace())
            .put("uid", pod.uid());
        try {
          events.record(
              identity,
              "kuik-webhook",
              involved,
              EventRecorder.Type.WARNING,
              GateBound.REASON,
              bound.message());
        } catch (ApiException dropped) {
          // An Event that cannot be recorded is dropped.
        }
      }
    }
    api.loop().schedule(TICK, "webhook looks for gates past their bound", () -> tick(incarnation));
  }

  /** Whether the policy that bounds its pod patches is in place (none to wait for: yes). */
  private boolean podGatesInPlace() {
    return podGatesWatch == null || podGatesWatch.bounds().inPlace();
  }

  private Informer informer(TypedCaches into, String what, ResourceType type, String namespace) {
    return HostInformers.feeding(api, identity, "webhook/" + what, type, namespace, into::apply);
  }
}
