package io.kuik.sim.world.kubelet;

import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.object.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The kubelet's work on one pod (one UID): its containers, init containers first, the status it
 * last wrote, and the token of its one pending sync. A sync timer carries the UID and token it was
 * scheduled with and does nothing when either has moved on (the pod was deleted, replaced, or
 * synced again), so no timer is ever cancelled.
 */
final class PodWork {

  final String namespace;
  final String name;
  final String uid;
  final List<ContainerWork> initContainers = new ArrayList<>();
  final List<ContainerWork> containers = new ArrayList<>();
  ObjectNode pod;
  Instant startTime;
  int token;
  ObjectNode written;

  PodWork(ObjectNode pod) {
    this.namespace = Meta.namespace(pod);
    this.name = Meta.name(pod);
    this.uid = Meta.uid(pod);
    this.pod = pod;
    JsonNode spec = pod.path("spec");
    for (JsonNode c : spec.path("initContainers")) {
      initContainers.add(new ContainerWork(c, true, false));
    }
    boolean afterInit = !initContainers.isEmpty();
    for (JsonNode c : spec.path("containers")) {
      containers.add(new ContainerWork(c, false, afterInit));
    }
  }

  String key() {
    return namespace + "/" + name;
  }

  /** The names of the pod's {@code imagePullSecrets}, in order, empty names skipped. */
  List<String> pullSecretNames() {
    List<String> names = new ArrayList<>();
    for (JsonNode ref : pod.path("spec").path("imagePullSecrets")) {
      String secret = ref.path("name").asString("");
      if (!secret.isEmpty()) {
        names.add(secret);
      }
    }
    return names;
  }

  boolean initialized() {
    return initContainers.stream().allMatch(ContainerWork::started);
  }

  /** Every container has started: none waits any more (each runs, or has terminated). */
  boolean running() {
    return initialized() && containers.stream().allMatch(ContainerWork::started);
  }

  /** {@code spec.restartPolicy}, {@code Always} when absent (the API server's default). */
  String restartPolicy() {
    return pod.path("spec").path("restartPolicy").asString("Always");
  }

  /**
   * Whether a container that exited with this code starts again: always under {@code Always}, after
   * a failure under {@code OnFailure}, never under {@code Never}.
   */
  boolean restarts(int exitCode) {
    String policy = restartPolicy();
    return policy.equals("Always") || (policy.equals("OnFailure") && exitCode != 0);
  }

  /**
   * The pod's phase as the kubelet's {@code getPhase} computes it (pkg/kubelet/kubelet_pods.go),
   * for init containers that complete at once and containers that restart at once: Pending while a
   * container waits; Running while one runs; once all have terminated, Succeeded when every one
   * exited 0, else Failed (only {@code Never} leaves a failed container terminated). A terminal
   * phase is never left.
   */
  String phase() {
    if (!running()) {
      return "Pending";
    }
    if (!containers.stream().allMatch(ContainerWork::terminated)) {
      return "Running";
    }
    return containers.stream().allMatch(ContainerWork::succeeded) ? "Succeeded" : "Failed";
  }

  boolean terminal() {
    String phase = phase();
    return phase.equals("Succeeded") || phase.equals("Failed");
  }

  /** The pod status the kubelet reports now. */
  ObjectNode status() {
    ObjectNode status = Json.object();
    status.put("phase", phase());
    ArrayNode conditions = status.putArray("conditions");
    condition(conditions, "Initialized", initialized(), "ContainersNotInitialized", initContainers);
    if (terminal()) {
      // generateContainersReadyConditionForTerminalPhase: not ready, the phase as the reason.
      String reason = phase().equals("Succeeded") ? "PodCompleted" : "PodFailed";
      conditions.addObject().put("type", "Ready").put("status", "False").put("reason", reason);
      conditions
          .addObject()
          .put("type", "ContainersReady")
          .put("status", "False")
          .put("reason", reason);
    } else {
      condition(conditions, "Ready", running(), "ContainersNotReady", containers);
      condition(conditions, "ContainersReady", running(), "ContainersNotReady", containers);
    }
    conditions.addObject().put("type", "PodScheduled").put("status", "True");
    if (startTime != null) {
      status.put("startTime", Timestamps.format(startTime));
    }
    if (!initContainers.isEmpty()) {
      ArrayNode init = status.putArray("initContainerStatuses");
      initContainers.forEach(c -> init.add(c.status()));
    }
    ArrayNode regular = status.putArray("containerStatuses");
    containers.forEach(c -> regular.add(c.status()));
    return status;
  }

  private static void condition(
      ArrayNode conditions,
      String type,
      boolean holds,
      String reason,
      List<ContainerWork> containers) {
    ObjectNode condition = conditions.addObject().put("type", type);
    condition.put("status", holds ? "True" : "False");
    if (!holds) {
      List<String> pending =
          containers.stream().filter(c -> !c.started()).map(c -> c.name).toList();
      condition.put("reason", reason);
      condition.put(
          "message",
          (type.equals("Initialized")
                  ? "containers with incomplete status: ["
                  : "containers with unready status: [")
              + String.join(" ", pending)
              + "]");
    }
  }
}
