package io.kuik.sim.world.kubelet;

import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Timestamps;
import java.time.Instant;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the kubelet knows of one container: its image and pull policy, and whether it waits (with
 * the reason the API shows) or has started. An init container that starts runs to completion at
 * once: the simulated containers do nothing but exist.
 */
final class ContainerWork {

  final String name;
  final String image;

  /** Null when the image does not parse: the container waits with InvalidImageName. */
  final ImageReference reference;

  final PullPolicy policy;
  final boolean init;
  private String reason;
  private String message;
  private Instant startedAt;

  ContainerWork(JsonNode spec, boolean init, boolean afterInit) {
    this.name = spec.path("name").asString("");
    this.image = spec.path("image").asString("");
    this.reference = parse(image);
    this.policy = PullPolicy.of(Json.text(spec, "imagePullPolicy"), reference);
    this.init = init;
    this.reason = init || afterInit ? "PodInitializing" : "ContainerCreating";
  }

  boolean started() {
    return startedAt != null;
  }

  String reason() {
    return reason;
  }

  void waiting(String reason, String message) {
    this.reason = reason;
    this.message = message;
  }

  void start(Instant at) {
    startedAt = at;
    reason = null;
    message = null;
  }

  /** The entry of containerStatuses or initContainerStatuses. */
  ObjectNode status() {
    ObjectNode status = Json.object();
    status.put("name", name);
    status.put("image", image);
    status.put("imageID", "");
    // A completed init container is ready, as the kubelet reports a zero exit code.
    status.put("ready", started());
    status.put("restartCount", 0);
    status.put("started", started() && !init);
    ObjectNode state = status.putObject("state");
    if (!started()) {
      ObjectNode waiting = state.putObject("waiting");
      waiting.put("reason", reason);
      if (message != null) {
        waiting.put("message", message);
      }
    } else if (init) {
      ObjectNode terminated = state.putObject("terminated");
      terminated.put("exitCode", 0);
      terminated.put("reason", "Completed");
      terminated.put("startedAt", Timestamps.format(startedAt));
      terminated.put("finishedAt", Timestamps.format(startedAt));
    } else {
      state.putObject("running").put("startedAt", Timestamps.format(startedAt));
    }
    return status;
  }

  private static ImageReference parse(String image) {
    try {
      return ImageReference.parse(image);
    } catch (InvalidImageReferenceException e) {
      return null;
    }
  }
}
