package io.kuik.webhook;

import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kuik.model.ServedNamespaces;
import io.kuik.routing.ContainerDecision;
import io.kuik.routing.Coverage;
import io.kuik.routing.PatchOperation;
import io.kuik.routing.PodPatch;
import io.kuik.routing.Router;
import io.kuik.routing.RoutingDecision;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The pod webhook's admission logic (docs/behaviour.md#routing-pods), without HTTP: an
 * AdmissionReview v1 in, an AdmissionReview out whose response allows the pod, with a JSONPatch
 * when routing rewrote it. It never refuses a pod and never throws: a request it cannot read, a pod
 * it cannot route, a namespace it does not know yet, any error, all give "allowed, unchanged" and a
 * log line (never with a credential). The HTTPS endpoint ({@link WebhookServer}) and the simulator
 * both call it.
 *
 * <p>Only the creation of a pod is routed ({@code CREATE} of {@code pods}, no subresource, as the
 * chart's webhook configuration sends them). Thread-safe when the router, the resource supplier and
 * the namespace lookup are.
 */
public final class AdmissionHandler {

  static final String API_VERSION = "admission.k8s.io/v1";
  static final String KIND = "AdmissionReview";
  static final String JSON_PATCH = "JSONPatch";

  private static final System.Logger LOG = System.getLogger(AdmissionHandler.class.getName());
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final Router router;
  private final Supplier<? extends Coverage> resources;
  private final ServedNamespaces served;
  private final Function<String, Optional<Map<String, String>>> namespaceLabels;
  private final Consumer<RoutingDecision> decided;
  private final BooleanSupplier gating;

  /**
   * A handler that routes each pod creation, tells {@code decided} its decision, and gates the pods
   * it gives a pull-secret reference while {@code gating} says so (pull secret first,
   * docs/decisions/0052-pull-secret-first.md), but a pod that names its node ({@code
   * spec.nodeName}), which the API server would refuse with a gate.
   *
   * @param router routes a pod with the production prober, or the simulator's
   * @param resources the current index of routing resources; called once per admission, so the
   *     driver can swap in a new index whenever the resources change
   * @param served the namespaces kuik serves: a pod created elsewhere is admitted as it came, as
   *     the webhook configuration's namespaceSelector, rendered from the same list, would not even
   *     send it
   * @param namespaceLabels the labels of a namespace, empty when the namespace is not known (the
   *     pod is then left alone: its selectors and pull-secret override cannot be evaluated)
   * @param decided called on the admission's thread, after routing and before the patch is built,
   *     so that the driver can count rewrites without routing a second time; must not block; what
   *     it throws is logged and ignored, so it can never change an answer
   * @param gating asked once per pod given a reference; must not block
   */
  public AdmissionHandler(
      Router router,
      Supplier<? extends Coverage> resources,
      ServedNamespaces served,
      Function<String, Optional<Map<String, String>>> namespaceLabels,
      Consumer<RoutingDecision> decided,
      BooleanSupplier gating) {
    this.served = Objects.requireNonNull(served, "served");
    this.gating = Objects.requireNonNull(gating, "gating");
    this.router = Objects.requireNonNull(router, "router");
    this.resources = Objects.requireNonNull(resources, "resources");
    this.namespaceLabels = Objects.requireNonNull(namespaceLabels, "namespaceLabels");
    this.decided = Objects.requireNonNull(decided, "decided");
  }

  /** The answer to one review; never throws, never refuses. */
  public AdmissionReview handle(AdmissionReview review) {
    AdmissionRequest request = review == null ? null : review.getRequest();
    if (request == null) {
      LOG.log(Level.WARNING, "admission review without a request: allowed unchanged");
      return allowed(null, null);
    }
    String uid = request.getUid();
    try {
      return allowed(uid, patchFor(request));
    } catch (RuntimeException failure) {
      // A bug or an input we did not foresee: the pod must still be admitted. The message names
      // the failure only; nothing routing handles carries a credential.
      LOG.log(
          Level.ERROR,
          "admission uid={0} pod={1}: routing failed, allowed unchanged: {2}",
          uid,
          pod(request),
          failure.toString());
      return allowed(uid, null);
    }
  }

  /**
   * The answer to a request body as the API server posts it; a body that is not an AdmissionReview
   * in JSON gets an allowed response without a uid (which the API server treats as a failed call,
   * and so as allowed under {@code failurePolicy: Ignore}).
   */
  public byte[] handle(byte[] body) {
    AdmissionReview review = null;
    String text = new String(body, StandardCharsets.UTF_8).strip();
    if (text.startsWith("{")) {
      try {
        review = JSON.unmarshal(text, AdmissionReview.class);
      } catch (RuntimeException malformed) {
        // Jackson quotes input in its messages: log the type only.
        LOG.log(
            Level.WARNING,
            "admission body is not an AdmissionReview ({0}): allowed unchanged",
            malformed.getClass().getSimpleName());
      }
    } else {
      LOG.log(Level.WARNING, "admission body is not a JSON object: allowed unchanged");
    }
    if (review != null && !KIND.equals(review.getKind())) {
      LOG.log(Level.WARNING, "admission body of kind {0}: allowed unchanged", review.getKind());
      review = null;
    }
    AdmissionReview answer = review == null ? allowed(null, null) : handle(review);
    return JSON.asJson(answer).getBytes(StandardCharsets.UTF_8);
  }

  /** The JSON Patch for the request, or {@code null} to leave the object as it is. */
  private String patchFor(AdmissionRequest request) {
    AdmittedPod where = pod(request);
    if (!isPodCreation(request)) {
      LOG.log(
          Level.DEBUG,
          "admission {0} {1} {2}: not a pod creation, allowed unchanged",
          request.getOperation(),
          kindOf(request.getKind()),
          where);
      return null;
    }
    if (request.getNamespace() == null || !served.serves(request.getNamespace())) {
      LOG.log(
          Level.DEBUG, "admission {0}: a namespace kuik does not serve, allowed unchanged", where);
      return null;
    }
    Optional<Pod> pod = podOf(request.getObject());
    if (pod.isEmpty()) {
      LOG.log(Level.WARNING, "admission {0}: object is not a pod, allowed unchanged", where);
      return null;
    }
    Optional<Map<String, String>> labels = namespaceLabels.apply(request.getNamespace());
    if (labels.isEmpty()) {
      LOG.log(
          Level.WARNING, "admission {0}: namespace not known yet, pod allowed unchanged", where);
      return null;
    }
    RoutingDecision decision = router.route(resources.get(), pod.get(), labels.get());
    log(where, decision);
    tell(where, decision);
    // A pod its author placed on a node is never gated: the API server refuses a pod created with
    // both (ValidatePodCreate), and no scheduler would wait for the gate anyway.
    boolean gate =
        !decision.addedPullSecrets().isEmpty() && !namesItsNode(pod.get()) && gating.getAsBoolean();
    if (gate) {
      LOG.log(Level.INFO, "admission {0}: gated until its pull secret is in place", where);
    }
    List<PatchOperation> operations = PodPatch.operations(pod.get(), decision, gate);
    if (operations.isEmpty()) {
      return null;
    }
    return PodPatch.toJson(operations);
  }

  private void tell(AdmittedPod where, RoutingDecision decision) {
    try {
      decided.accept(decision);
    } catch (RuntimeException ignored) {
      LOG.log(Level.WARNING, "admission {0}: decision listener failed: {1}", where, ignored);
    }
  }

  private static boolean namesItsNode(Pod pod) {
    String node = pod.getSpec().getNodeName();
    return node != null && !node.isEmpty();
  }

  private static boolean isPodCreation(AdmissionRequest request) {
    GroupVersionKind kind = request.getKind();
    return "CREATE".equals(request.getOperation())
        && kind != null
        && "Pod".equals(kind.getKind())
        && (kind.getGroup() == null || kind.getGroup().isEmpty())
        && "v1".equals(kind.getVersion())
        && (request.getSubResource() == null || request.getSubResource().isEmpty());
  }

  /** The object as a Pod, if it is one: a JSON object whose kind, when given, is Pod. */
  private static Optional<Pod> podOf(Object object) {
    if (object instanceof Pod) {
      return Optional.of((Pod) object);
    }
    if (!(object instanceof Map)) {
      return Optional.empty();
    }
    Object kind = ((Map<?, ?>) object).get("kind");
    Object apiVersion = ((Map<?, ?>) object).get("apiVersion");
    if ((kind != null && !"Pod".equals(kind)) || (apiVersion != null && !"v1".equals(apiVersion))) {
      return Optional.empty();
    }
    try {
      Pod pod = JSON.convertValue(object, Pod.class);
      return pod.getSpec() == null ? Optional.empty() : Optional.of(pod);
    } catch (RuntimeException notAPod) {
      return Optional.empty();
    }
  }

  private static void log(AdmittedPod where, RoutingDecision decision) {
    if (decision.skipped() != null) {
      LOG.log(Level.INFO, "admission {0}: left alone, {1}", where, decision.skipped());
      return;
    }
    for (ContainerDecision container : decision.containers()) {
      LOG.log(
          Level.INFO,
          "admission {0} container={1} image={2} chosen={3} reason={4}",
          where,
          container.container().name(),
          container.container().image(),
          container.chosen() == null ? "none" : container.chosen().image(),
          container.reason());
    }
    decision
        .notCovered()
        .forEach(
            (container, why) ->
                LOG.log(
                    Level.DEBUG,
                    "admission {0} container={1} skipped: {2}",
                    where,
                    container,
                    why));
    if (!decision.addedPullSecrets().isEmpty()) {
      LOG.log(
          Level.INFO, "admission {0}: imagePullSecrets += {1}", where, decision.addedPullSecrets());
    }
  }

  /**
   * The pod as logs name it; a pod of a ReplicaSet has only a generateName, shown as {@code web-*}.
   */
  private static AdmittedPod pod(AdmissionRequest request) {
    if (request.getName() != null && !request.getName().isEmpty()) {
      return new AdmittedPod(request.getNamespace(), request.getName());
    }
    String generateName = null;
    Object object = request.getObject();
    if (object instanceof HasMetadata typed && typed.getMetadata() != null) {
      generateName = typed.getMetadata().getGenerateName();
    } else if (object instanceof Map) {
      Object metadata = ((Map<?, ?>) object).get("metadata");
      if (metadata instanceof Map && ((Map<?, ?>) metadata).get("generateName") != null) {
        generateName = String.valueOf(((Map<?, ?>) metadata).get("generateName"));
      }
    }
    return new AdmittedPod(request.getNamespace(), generateName == null ? "?" : generateName + "*");
  }

  private static String kindOf(GroupVersionKind kind) {
    return kind == null ? "?" : kind.getKind();
  }

  private static AdmissionReview allowed(String uid, String patch) {
    AdmissionResponse response = new AdmissionResponse();
    response.setUid(uid == null ? "" : uid);
    response.setAllowed(true);
    if (patch != null) {
      response.setPatchType(JSON_PATCH);
      response.setPatch(Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
    }
    AdmissionReview review = new AdmissionReview();
    review.setApiVersion(API_VERSION);
    review.setKind(KIND);
    review.setResponse(response);
    return review;
  }
}
