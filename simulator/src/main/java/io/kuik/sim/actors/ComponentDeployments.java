package io.kuik.sim.actors;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Timestamps;
import io.kuik.sim.world.object.YamlDocuments;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Deployments of kuik's own components, {@code <release>-secret-syncer} and {@code
 * <release>-webhook}, as the API server holds them, and their status as the Deployment controller
 * writes it ({@code system:serviceaccount:kube-system:deployment-controller}, on the status
 * subresource). The simulator runs each component as one process (a host), so each Deployment has
 * one replica, available while its process is ready: the kubelet's readiness probe and the
 * controller's count reduced to the process telling it (pkg/controller/deployment, {@code
 * syncRolloutStatus}; a pod counts as available once Ready, minReadySeconds being 0). A status
 * write the API server refuses is tried again after {@link Deployments#RETRY}, with the latest
 * availability.
 */
public final class ComponentDeployments {

  public static final Identity IDENTITY =
      Identity.serviceAccount("kube-system", "deployment-controller");

  // The real system:controller:deployment-controller ClusterRole, reduced to Deployments' status.
  private static final String RBAC =
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: {name: "system:controller:deployment-controller"}
      rules:
        - apiGroups: ["apps"]
          resources: ["deployments"]
          verbs: ["get", "list", "watch"]
        - apiGroups: ["apps"]
          resources: ["deployments/status"]
          verbs: ["update"]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: {name: "system:controller:deployment-controller"}
      roleRef:
        apiGroup: rbac.authorization.k8s.io
        kind: ClusterRole
        name: "system:controller:deployment-controller"
      subjects:
        - {kind: ServiceAccount, name: deployment-controller, namespace: kube-system}
      """;

  private final ApiServer api;
  private final EventLoop loop;
  private final Map<String, Boolean> wanted = new HashMap<>();
  private final Map<String, Boolean> written = new HashMap<>();

  public ComponentDeployments(ApiServer api) {
    this.api = Objects.requireNonNull(api, "api");
    this.loop = api.loop();
  }

  /** The controller's ClusterRole and its binding, to store with the cluster's built-in RBAC. */
  public static List<ObjectNode> rbac() {
    return YamlDocuments.parse(RBAC, "deployment-controller RBAC");
  }

  /**
   * The release's Deployments as {@code helm install} creates them, named as Helm rendered them
   * ({@code names}: component to name), as {@code installer}, with Helm's release annotations and
   * no replica available yet. One replica each, and no pod: the simulator runs each component as
   * one process.
   */
  public void install(
      Identity installer, String release, String namespace, Map<String, String> names) {
    for (Map.Entry<String, String> named : names.entrySet()) {
      String name = named.getValue();
      String component = named.getKey();
      ObjectNode deployment = Json.object();
      deployment.put("apiVersion", "apps/v1");
      deployment.put("kind", "Deployment");
      ObjectNode meta = deployment.putObject("metadata");
      meta.put("name", name);
      meta.put("namespace", namespace);
      ObjectNode labels = meta.putObject("labels");
      labels.put("app.kubernetes.io/name", "kuik");
      labels.put("app.kubernetes.io/instance", release);
      labels.put("app.kubernetes.io/component", component);
      labels.put("app.kubernetes.io/managed-by", "Helm");
      ObjectNode annotations = meta.putObject("annotations");
      annotations.put("meta.helm.sh/release-name", release);
      annotations.put("meta.helm.sh/release-namespace", namespace);
      ObjectNode spec = deployment.putObject("spec");
      spec.put("replicas", 1);
      spec.putObject("selector")
          .putObject("matchLabels")
          .put("app.kubernetes.io/component", component);
      ObjectNode template = spec.putObject("template");
      template
          .putObject("metadata")
          .putObject("labels")
          .put("app.kubernetes.io/component", component);
      template
          .putObject("spec")
          .putArray("containers")
          .addObject()
          .put("name", component)
          .put("image", "kuik:simulated");
      api.create(installer, deployment);
    }
  }

  /** The component's process became ready ({@code true}) or went away ({@code false}). */
  public void available(String namespace, String name, boolean available) {
    String key = namespace + "/" + name;
    wanted.put(key, available);
    write(namespace, name);
  }

  private void write(String namespace, String name) {
    String key = namespace + "/" + name;
    Boolean available = wanted.get(key);
    if (available.equals(written.get(key))) {
      return;
    }
    try {
      ObjectNode live = api.get(IDENTITY, ResourceType.DEPLOYMENT, namespace, name);
      live.set("status", status(live, available));
      api.updateStatus(IDENTITY, live);
      written.put(key, available);
    } catch (ApiException e) {
      if (e.code() == 404) {
        return; // deleted, with its namespace say: nothing to report on
      }
      loop.schedule(
          Deployments.RETRY,
          "deployment-controller " + key + " status",
          () -> write(namespace, name));
    }
  }

  private ObjectNode status(ObjectNode live, boolean available) {
    int count = available ? 1 : 0;
    ObjectNode status = Json.object();
    status.put("observedGeneration", live.path("metadata").path("generation").asLong(1));
    status.put("replicas", 1);
    status.put("updatedReplicas", 1);
    status.put("readyReplicas", count);
    status.put("availableReplicas", count);
    if (!available) {
      status.put("unavailableReplicas", 1);
    }
    ObjectNode condition = status.putArray("conditions").addObject();
    String now = Timestamps.format(loop.now());
    condition.put("type", "Available");
    condition.put("status", available ? "True" : "False");
    condition.put("lastUpdateTime", now);
    condition.put("lastTransitionTime", now);
    condition.put("reason", available ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable");
    condition.put(
        "message",
        available
            ? "Deployment has minimum availability."
            : "Deployment does not have minimum availability.");
    return status;
  }
}
