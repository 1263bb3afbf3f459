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

  boolean running() {
    return initialized() && containers.stream().allMatch(ContainerWork::started);
  }

  String phase() {
    return running() ? "Running" : "Pending";
  }

  /** The pod status the kubelet reports now. */
  ObjectNode status() {
    ObjectNode status = Json.object();
    status.put("phase", phase());
    ArrayNode conditions = status.putArray("conditions");
    condition(conditions, "Initialized", initialized(), "ContainersNotInitialized", initContainers);
    condition(conditions, "Ready", running(), "ContainersNotReady", containers);
    condition(conditions, "ContainersReady", running(), "ContainersNotReady", containers);
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
