package io.kuik.sim.actors;

import io.kuik.sim.client.Informer;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.object.YamlDocuments;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Deployments, as far as their pods go: what the Deployment and ReplicaSet controllers do to pods,
 * acting as {@code system:serviceaccount:kube-system:replicaset-controller} (the identity
 * kube-controller-manager uses with {@code --use-service-account-credentials}), with the RBAC of
 * {@link #rbac()}.
 *
 * <p>A Deployment's pods are named {@code <name>-<revision>-<index>} and labelled with the
 * template's labels plus {@code pod-template-hash: <revision>}. Its controller keeps {@code
 * replicas} pods of the current revision (creating missing ones, a deleted pod included, and
 * deleting the highest indexes when scaled down). A rollout is a new revision: all its pods are
 * created at once, and pods of older revisions are deleted only as the new ones run, never leaving
 * fewer running pods than {@code replicas} (the RollingUpdate strategy with maxSurge 100% and
 * maxUnavailable 0). A rollout whose pods never run therefore keeps the old pods, as a real one
 * does. The controller reacts to pod changes through an informer and retries a failed request after
 * {@link #RETRY}.
 */
public final class Deployments {

  public static final Identity IDENTITY =
      Identity.serviceAccount("kube-system", "replicaset-controller");

  /** How long the controller waits before trying again after the API server refused a request. */
  public static final Duration RETRY = Duration.ofSeconds(5);

  private static final String TEMPLATE_HASH = "pod-template-hash";

  // The real system:controller:replicaset-controller ClusterRole, reduced to pods and events.
  private static final String RBAC =
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: {name: "system:controller:replicaset-controller"}
      rules:
        - apiGroups: [""]
          resources: ["pods"]
          verbs: ["create", "delete", "list", "patch", "watch"]
        - apiGroups: ["", "events.k8s.io"]
          resources: ["events"]
          verbs: ["create", "patch", "update"]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: {name: "system:controller:replicaset-controller"}
      roleRef:
        apiGroup: rbac.authorization.k8s.io
        kind: ClusterRole
        name: "system:controller:replicaset-controller"
      subjects:
        - {kind: ServiceAccount, name: replicaset-controller, namespace: kube-system}
      """;

  private final ApiServer api;
  private final EventLoop loop;
  private final Informer pods;
  private final Map<String, Deployment> deployments = new TreeMap<>();

  public Deployments(ApiServer api) {
    this.api = Objects.requireNonNull(api, "api");
    this.loop = api.loop();
    this.pods =
        new Informer(
            api,
            IDENTITY,
            "replicaset-controller/pods",
            ResourceType.POD,
            null,
            LabelSelector.EVERYTHING,
            Duration.ZERO);
    pods.addHandler(
        new Informer.Handler() {
          @Override
          public void onUpdate(ObjectNode old, ObjectNode now) {
            if (!phase(old).equals(phase(now))) {
              ownerOf(now).ifPresent(Deployment::reconcile);
            }
          }

          @Override
          public void onDelete(ObjectNode last) {
            ownerOf(last).ifPresent(Deployment::reconcile);
          }
        });
  }

  /** The controller's ClusterRole and its binding, to store with the cluster's built-in RBAC. */
  public static List<ObjectNode> rbac() {
    return YamlDocuments.parse(RBAC, "replicaset-controller RBAC");
  }

  public void start() {
    pods.start();
  }

  /** A Deployment of {@code replicas} pods with one container {@code app} running {@code image}. */
  public Deployment create(String namespace, String name, String image, int replicas) {
    ObjectNode template = Json.object();
    template.putObject("metadata").putObject("labels").put("app", name);
    template
        .putObject("spec")
        .putArray("containers")
        .addObject()
        .put("name", "app")
        .put("image", image);
    return create(namespace, name, template, replicas);
  }

  /**
   * A Deployment from a pod template ({@code metadata.labels}, {@code metadata.annotations}, {@code
   * spec}), as {@code spec.template} of a Deployment. The template's labels are its selector; with
   * none, {@code app: <name>}.
   */
  public Deployment create(String namespace, String name, ObjectNode template, int replicas) {
    String key = namespace + "/" + name;
    if (deployments.containsKey(key)) {
      throw new IllegalStateException("deployment " + key + " exists");
    }
    Deployment deployment = new Deployment(namespace, name, template.deepCopy(), replicas);
    deployments.put(key, deployment);
    deployment.reconcile();
    return deployment;
  }

  public Optional<Deployment> find(String namespace, String name) {
    return Optional.ofNullable(deployments.get(namespace + "/" + name));
  }

  private Optional<Deployment> ownerOf(ObjectNode pod) {
    return deployments.values().stream()
        .filter(d -> d.namespace.equals(Meta.namespace(pod)) && d.owns(pod))
        .findFirst();
  }

  private static boolean running(ObjectNode pod) {
    return "Running".equals(phase(pod));
  }

  private static String phase(ObjectNode pod) {
    return pod.path("status").path("phase").asString("");
  }

  /** One Deployment and its controller's state. */
  public final class Deployment {
    private final String namespace;
    private final String name;
    private final Map<String, String> selector;
    private final Pattern podName;
    private ObjectNode template;
    private int revision = 1;
    private int replicas;
    private boolean deleted;
    private boolean retryPending;

    private Deployment(String namespace, String name, ObjectNode template, int replicas) {
      this.namespace = namespace;
      this.name = name;
      ObjectNode labels = Json.child(Json.child(template, "metadata"), "labels");
      if (labels.isEmpty()) {
        labels.put("app", name);
      }
      this.selector = Meta.labels(template);
      this.podName = Pattern.compile(Pattern.quote(name) + "-([0-9]+)-([0-9]+)");
      this.template = template;
      this.replicas = checked(replicas);
    }

    public String namespace() {
      return namespace;
    }

    public String name() {
      return name;
    }

    public int revision() {
      return revision;
    }

    public int replicas() {
      return replicas;
    }

    /** {@code kubectl scale --replicas}. */
    public void scale(int replicas) {
      this.replicas = checked(replicas);
      reconcile();
    }

    /**
     * A new revision from a new pod template; its labels keep the selector's (a Deployment's
     * selector cannot change).
     */
    public void rollout(ObjectNode template) {
      ObjectNode copy = template.deepCopy();
      ObjectNode labels = Json.child(Json.child(copy, "metadata"), "labels");
      selector.forEach(labels::put);
      this.template = copy;
      revision++;
      reconcile();
    }

    /** {@code kubectl set image deployment/<name> <container>=<image>}: a rollout. */
    public void setImage(String container, String image) {
      ObjectNode next = template.deepCopy();
      boolean found = false;
      for (String list : List.of("initContainers", "containers")) {
        for (JsonNode c : next.path("spec").path(list)) {
          if (container.equals(c.path("name").asString(""))) {
            ((ObjectNode) c).put("image", image);
            found = true;
          }
        }
      }
      if (!found) {
        throw new IllegalArgumentException("no container " + container + " in " + name);
      }
      rollout(next);
    }

    /** The Deployment's pods as the API server holds them, by name. */
    public List<ObjectNode> pods() {
      return owned(api.list(IDENTITY, ResourceType.POD, namespace, selector()).items());
    }

    /** {@code kubectl delete deployment}: its pods go, and the controller forgets it. */
    public void delete() {
      deleted = true;
      deployments.remove(namespace + "/" + name);
      for (ObjectNode pod : pods()) {
        deletePod(Meta.name(pod));
      }
    }

    boolean owns(ObjectNode pod) {
      return podName.matcher(Meta.name(pod)).matches() && selector().matches(pod);
    }

    private LabelSelector selector() {
      List<LabelSelector.Requirement> requirements = new ArrayList<>();
      selector.forEach(
          (k, v) ->
              requirements.add(
                  new LabelSelector.Requirement(k, LabelSelector.Operator.EQUALS, List.of(v))));
      return new LabelSelector(requirements);
    }

    private List<ObjectNode> owned(List<ObjectNode> items) {
      return items.stream().filter(p -> owns(p) && !Meta.deleting(p)).toList();
    }

    void reconcile() {
      if (deleted) {
        return;
      }
      try {
        reconcileOnce();
      } catch (ApiException e) {
        if (namespaceGone(e)) {
          // The namespace controller deletes a Deployment with its namespace.
          deleted = true;
          deployments.remove(namespace + "/" + name);
          return;
        }
        if (!retryPending) {
          retryPending = true;
          loop.schedule(
              RETRY,
              "deployment " + namespace + "/" + name + " retry",
              () -> {
                retryPending = false;
                reconcile();
              });
        }
      }
    }

    private void reconcileOnce() {
      Map<Integer, ObjectNode> current = new TreeMap<>();
      List<ObjectNode> old = new ArrayList<>();
      for (ObjectNode pod : pods()) {
        Matcher m = podName.matcher(Meta.name(pod));
        m.matches();
        if (Integer.parseInt(m.group(1)) == revision) {
          current.put(Integer.parseInt(m.group(2)), pod);
        } else {
          old.add(pod);
        }
      }
      for (int index = 0; index < replicas; index++) {
        if (!current.containsKey(index)) {
          current.put(index, api.create(IDENTITY, pod(index)));
        }
      }
      for (Integer index : new TreeSet<>(current.keySet()).descendingSet()) {
        if (index >= replicas) {
          deletePod(Meta.name(current.remove(index)));
        }
      }
      // maxUnavailable 0: old pods may go only as far as the running total stays >= replicas.
      long newUnavailable = current.values().stream().filter(p -> !running(p)).count();
      long deletable = old.size() + current.size() - replicas - newUnavailable;
      old.sort(Comparator.comparing(Deployments::running).thenComparing(p -> Meta.name(p)));
      for (int i = 0; i < deletable && i < old.size(); i++) {
        deletePod(Meta.name(old.get(i)));
      }
    }

    private ObjectNode pod(int index) {
      ObjectNode pod = Json.object();
      pod.put("apiVersion", "v1");
      pod.put("kind", "Pod");
      ObjectNode meta = pod.putObject("metadata");
      meta.put("name", name + "-" + revision + "-" + index);
      meta.put("namespace", namespace);
      ObjectNode labels = meta.putObject("labels");
      Meta.labels(template).forEach(labels::put);
      labels.put(TEMPLATE_HASH, Integer.toString(revision));
      if (template.path("metadata").path("annotations").isObject()) {
        meta.set("annotations", template.path("metadata").path("annotations").deepCopy());
      }
      pod.set("spec", template.path("spec").deepCopy());
      return pod;
    }

    /** A create refused because the namespace is gone (404) or terminating (403). */
    private boolean namespaceGone(ApiException e) {
      String message = e.getMessage() == null ? "" : e.getMessage();
      return e.code() == 404 && message.startsWith("namespaces \"" + namespace + "\"")
          || e.code() == 403 && message.endsWith("because it is being terminated");
    }

    private void deletePod(String pod) {
      try {
        api.delete(IDENTITY, ResourceType.POD, namespace, pod);
      } catch (ApiException e) {
        if (e.code() != 404) {
          throw e;
        }
      }
    }

    private int checked(int replicas) {
      if (replicas < 0) {
        throw new IllegalArgumentException("replicas must not be negative: " + replicas);
      }
      return replicas;
    }
  }
}
