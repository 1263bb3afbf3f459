package io.kuik.sim.dsl;

import static io.kuik.sim.dsl.KuikWorld.ADMIN;

import io.kuik.model.PullSecretGate;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RoutingKind;
import io.kuik.model.SecretNames;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The DSL's workloads: pods as a person, a controller or kuik's webhook leaves them, Deployments
 * run by the simulated ReplicaSet controller, ServiceAccounts' pull secrets, and the lives of the
 * containers on the node. Every write is a request as {@link KuikWorld#ADMIN}.
 */
public final class Workloads {

  private final KuikWorld world;

  Workloads(KuikWorld world) {
    this.world = world;
  }

  /**
   * A pod as kuik's webhook leaves it after rewriting its only container {@code app} to {@code
   * image}: its label, the annotations and the pull-secret reference.
   */
  public void rewrittenPod(String namespace, String pod, String rewriter, String image) {
    rewrittenPod(namespace, pod, rewriter, image, Map.of(), List.of(), null);
  }

  /** The same, with the pod's {@code restartPolicy} ({@code null}: unset, i.e. Always). */
  public void rewrittenPod(
      String namespace, String pod, String rewriter, String image, String restartPolicy) {
    rewrittenPod(namespace, pod, rewriter, image, Map.of(), List.of(), restartPolicy);
  }

  /**
   * The same pod with further containers that kuik left alone ({@code name -> image}, in order),
   * pull Secrets of its own, listed before kuik's as the webhook appends its reference (every
   * container pulls with all of them), and a {@code restartPolicy} ({@code null}: unset, i.e.
   * Always).
   */
  public void rewrittenPod(
      String namespace,
      String pod,
      String rewriter,
      String image,
      Map<String, String> others,
      List<String> ownPullSecrets,
      String restartPolicy) {
    rewrittenPod(
        ADMIN, namespace, pod, rewriter, image, others, ownPullSecrets, restartPolicy, true);
  }

  /**
   * {@link #rewrittenPod(String, String, String, String)} as the webhook leaves it with pull secret
   * first: gated by {@link io.kuik.model.PullSecretGate} too.
   */
  public void rewrittenPodGated(String namespace, String pod, String rewriter, String image) {
    rewrittenPod(ADMIN, namespace, pod, rewriter, image, Map.of(), List.of(), null, true, true);
  }

  /**
   * A tenant of {@code namespace}, a person whose Role there lets them create, change and delete
   * pods, and nothing else: what a namespace's developers hold on a shared cluster.
   */
  public Identity tenantOf(String namespace) {
    String name = "tenant-of-" + namespace;
    if (world.api().find(ADMIN, ResourceType.ROLE, namespace, name).isEmpty()) {
      ObjectNode role = Json.object();
      role.put("apiVersion", "rbac.authorization.k8s.io/v1");
      role.put("kind", "Role");
      role.putObject("metadata").put("name", name).put("namespace", namespace);
      ObjectNode rule = role.putArray("rules").addObject();
      rule.putArray("apiGroups").add("");
      rule.putArray("resources").add("pods");
      rule.putArray("verbs").add("get").add("create").add("patch").add("update").add("delete");
      world.api().create(ADMIN, role);
      ObjectNode binding = Json.object();
      binding.put("apiVersion", "rbac.authorization.k8s.io/v1");
      binding.put("kind", "RoleBinding");
      binding.putObject("metadata").put("name", name).put("namespace", namespace);
      binding
          .putObject("roleRef")
          .put("apiGroup", "rbac.authorization.k8s.io")
          .put("kind", "Role")
          .put("name", name);
      binding
          .putArray("subjects")
          .addObject()
          .put("apiGroup", "rbac.authorization.k8s.io")
          .put("kind", "User")
          .put("name", name);
      world.api().create(ADMIN, binding);
    }
    return Identity.person(name);
  }

  /**
   * A pod that a tenant of {@code namespace} creates already looking as the webhook leaves a pod it
   * rewrote: the label, the annotations naming {@code rewriter}, the reference and {@code image}.
   * The webhook sees its creation and leaves it alone, as it leaves any pod already routed.
   */
  public void forgedPod(String namespace, String pod, String rewriter, String image) {
    rewrittenPod(
        tenantOf(namespace), namespace, pod, rewriter, image, Map.of(), List.of(), null, true);
  }

  /**
   * A pod as a webhook older than the label left it: the annotations and the reference, without
   * {@code kuik.enix.io/images-rewritten}, so the syncer's informer never selects it.
   */
  public void rewrittenPodWithoutLabel(
      String namespace, String pod, String rewriter, String image) {
    rewrittenPod(ADMIN, namespace, pod, rewriter, image, Map.of(), List.of(), null, false);
  }

  private void rewrittenPod(
      Identity who,
      String namespace,
      String pod,
      String rewriter,
      String image,
      Map<String, String> others,
      List<String> ownPullSecrets,
      String restartPolicy,
      boolean labelled) {
    rewrittenPod(
        who,
        namespace,
        pod,
        rewriter,
        image,
        others,
        ownPullSecrets,
        restartPolicy,
        labelled,
        false);
  }

  private void rewrittenPod(
      Identity who,
      String namespace,
      String pod,
      String rewriter,
      String image,
      Map<String, String> others,
      List<String> ownPullSecrets,
      String restartPolicy,
      boolean labelled,
      boolean gated) {
    String[] kindAndName = rewriter.split("/", 2);
    RoutingKind kind =
        "ImageMirror".equals(kindAndName[0])
            ? RoutingKind.IMAGE_MIRROR
            : RoutingKind.IMAGE_ALTERNATIVE;
    ObjectNode object = Json.object();
    object.put("apiVersion", "v1");
    object.put("kind", "Pod");
    ObjectNode meta = object.putObject("metadata");
    meta.put("name", pod);
    meta.put("namespace", namespace);
    if (labelled) {
      meta.putObject("labels")
          .put(RewriteAnnotations.REWRITTEN_LABEL, RewriteAnnotations.REWRITTEN_LABEL_VALUE);
    }
    ObjectNode annotations = meta.putObject("annotations");
    annotations.put(
        RewriteAnnotations.ORIGINAL_IMAGES,
        RewriteAnnotations.writeMap(Map.of("app", "original.example/app:1")));
    annotations.put(
        RewriteAnnotations.REWRITTEN_BY, RewriteAnnotations.writeMap(Map.of("app", rewriter)));
    annotations.put(
        RewriteAnnotations.REASON,
        RewriteAnnotations.writeMap(Map.of("app", "the original was unavailable")));
    ObjectNode spec = object.putObject("spec");
    ArrayNode containers = spec.putArray("containers");
    ObjectNode container = containers.addObject();
    container.put("name", "app");
    container.put("image", image);
    // Every start pulls, so each pod shows whether the credential was in place for it.
    container.put("imagePullPolicy", "Always");
    others.forEach(
        (name, other) -> {
          ObjectNode added = containers.addObject();
          added.put("name", name);
          added.put("image", other);
          added.put("imagePullPolicy", "Always");
        });
    ArrayNode pullSecrets = spec.putArray("imagePullSecrets");
    ownPullSecrets.forEach(name -> pullSecrets.addObject().put("name", name));
    pullSecrets.addObject().put("name", SecretNames.injected(kind.kind(), kindAndName[1]));
    if (restartPolicy != null) {
      spec.put("restartPolicy", restartPolicy);
    }
    if (gated) {
      spec.putArray("schedulingGates").addObject().put("name", PullSecretGate.NAME);
    }
    world.api().create(who, object);
  }

  /**
   * A pod submitted as a person or a controller would: its containers by name and image, in order,
   * pulled on every start. kuik's webhook sees it in the admission chain.
   */
  public void submitPod(
      String namespace,
      String pod,
      Map<String, String> containers,
      Map<String, String> annotations,
      List<String> pullSecrets) {
    submitPod(namespace, pod, containers, annotations, pullSecrets, null);
  }

  /** {@link #submitPod}, run as {@code serviceAccount} (null: none named, so {@code default}). */
  public void submitPod(
      String namespace,
      String pod,
      Map<String, String> containers,
      Map<String, String> annotations,
      List<String> pullSecrets,
      String serviceAccount) {
    submitPod(namespace, pod, containers, annotations, pullSecrets, serviceAccount, null);
  }

  /**
   * A pod placed on {@code node} by its author ({@code spec.nodeName}, as {@code kubectl debug
   * node/…} and controllers that place their pods themselves create them), not by a scheduler.
   */
  public void submitPodOnNode(String namespace, String pod, String image, String node) {
    submitPod(namespace, pod, Map.of("app", image), Map.of(), List.of(), null, node);
  }

  private void submitPod(
      String namespace,
      String pod,
      Map<String, String> containers,
      Map<String, String> annotations,
      List<String> pullSecrets,
      String serviceAccount,
      String node) {
    ObjectNode object = Json.object();
    object.put("apiVersion", "v1");
    object.put("kind", "Pod");
    ObjectNode meta = object.putObject("metadata");
    meta.put("name", pod);
    meta.put("namespace", namespace);
    annotations.forEach(meta.putObject("annotations")::put);
    ObjectNode spec = object.putObject("spec");
    ArrayNode list = spec.putArray("containers");
    containers.forEach(
        (name, image) -> {
          ObjectNode container = list.addObject();
          container.put("name", name);
          container.put("image", image);
          container.put("imagePullPolicy", "Always");
        });
    if (!pullSecrets.isEmpty()) {
      ArrayNode refs = spec.putArray("imagePullSecrets");
      pullSecrets.forEach(name -> refs.addObject().put("name", name));
    }
    if (serviceAccount != null) {
      spec.put("serviceAccountName", serviceAccount);
    }
    if (node != null) {
      spec.put("nodeName", node);
    }
    world.api().create(ADMIN, object);
  }

  /**
   * From now on, every {@code every}, a new pod {@code <prefix>-<n>} of {@code image} is submitted
   * in {@code namespace} (each pulls at its start), and deleted {@code lifetime} later, for {@code
   * total}: the pods of a Deployment rolled out again and again, each needing its credential at the
   * moment it starts.
   */
  public void churn(
      String namespace,
      String prefix,
      String image,
      Duration every,
      Duration lifetime,
      Duration total) {
    churn(namespace, prefix, image, List.of(), every, lifetime, total);
  }

  /** {@link #churn}, each pod listing {@code pullSecrets} in its {@code imagePullSecrets}. */
  public void churn(
      String namespace,
      String prefix,
      String image,
      List<String> pullSecrets,
      Duration every,
      Duration lifetime,
      Duration total) {
    long pods = total.toMillis() / every.toMillis();
    for (long n = 1; n <= pods; n++) {
      String pod = prefix + "-" + n;
      Duration at = every.multipliedBy(n - 1);
      world
          .cluster()
          .loop()
          .schedule(
              at,
              "submit " + namespace + "/" + pod,
              () -> submitPod(namespace, pod, Map.of("app", image), Map.of(), pullSecrets));
      world
          .cluster()
          .loop()
          .schedule(
              at.plus(lifetime),
              "delete " + namespace + "/" + pod,
              () -> deletePod(namespace, pod));
    }
  }

  /** {@code kubectl label pod}: a merge patch of one label. */
  public void labelPod(String namespace, String pod, String key, String value) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putObject("labels").put(key, value);
    world.api().mergePatch(ADMIN, ResourceType.POD, namespace, pod, patch, "kubectl-label");
  }

  public void deletePod(String namespace, String pod) {
    world.api().delete(ADMIN, ResourceType.POD, namespace, pod);
  }

  /**
   * A Deployment of {@code replicas} pods from {@code template} (its {@code spec.template}), run by
   * the simulated ReplicaSet controller.
   */
  public void deployment(String namespace, String name, ObjectNode template, int replicas) {
    world.cluster().deployments().create(namespace, name, template, replicas);
  }

  /**
   * The ServiceAccount lists these pull secrets (created, or changed when it exists, as the {@code
   * default} one always does).
   */
  public void serviceAccountPullSecrets(String namespace, String name, List<String> pullSecrets) {
    Optional<ObjectNode> live =
        world.api().find(ADMIN, ResourceType.SERVICE_ACCOUNT, namespace, name);
    ObjectNode account = live.orElseGet(Json::object);
    account.put("apiVersion", "v1");
    account.put("kind", "ServiceAccount");
    ObjectNode meta = Json.child(account, "metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    ArrayNode refs = account.putArray("imagePullSecrets");
    pullSecrets.forEach(secret -> refs.addObject().put("name", secret));
    if (live.isPresent()) {
      world.api().update(ADMIN, account);
    } else {
      world.api().create(ADMIN, account);
    }
  }

  // ---- containers on the node -----------------------------------------------------------------

  /**
   * The process of the pod's container {@code app} exits with {@code exitCode}; the kubelet
   * restarts it or ends the pod Succeeded or Failed, as its restart policy says.
   */
  public void containerExits(String namespace, String pod, int exitCode) {
    world.cluster().kubelet().containerExits(namespace, pod, "app", exitCode);
  }

  /**
   * Runs the world until the pod is Running; returns how long that took, or empty past the limit.
   */
  public Optional<Duration> runUntilRunning(String namespace, String pod, Duration limit) {
    Instant start = world.now();
    Instant end = start.plus(limit);
    Duration step = Duration.ofMillis(100);
    while (!world.now().isAfter(end)) {
      if ("Running".equals(world.views().kubeletPhase(namespace, pod))) {
        return Optional.of(Duration.between(start, world.now()));
      }
      world.pass(step);
    }
    return Optional.empty();
  }
}
