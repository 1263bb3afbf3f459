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
 * the reason the API shows), runs, or has terminated with an exit code. An init container that
 * starts runs to completion at once; a container runs until it is told to exit ({@link #exit}), and
 * is then either restarted at once or left terminated, as the pod's restart policy says.
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
  private Termination terminated;
  private Termination lastTermination;
  private int restarts;

  /** How a run of the container ended: {@code Completed} for exit code 0, else {@code Error}. */
  private record Termination(int exitCode, Instant startedAt, Instant finishedAt) {
    void into(ObjectNode state) {
      ObjectNode t = state.putObject("terminated");
      t.put("exitCode", exitCode);
      t.put("reason", exitCode == 0 ? "Completed" : "Error");
      t.put("startedAt", Timestamps.format(startedAt));
      t.put("finishedAt", Timestamps.format(finishedAt));
    }
  }

  ContainerWork(JsonNode spec, boolean init, boolean afterInit) {
    this.name = spec.path("name").asString("");
    this.image = spec.path("image").asString("");
    this.reference = parse(image);
    this.policy = PullPolicy.of(Json.text(spec, "imagePullPolicy"), reference);
    this.init = init;
    this.reason = init || afterInit ? "PodInitializing" : "ContainerCreating";
  }

  /** Started at least once: running now, or terminated for good. */
  boolean started() {
    return startedAt != null;
  }

  boolean terminated() {
    return terminated != null;
  }

  /** Exited with code 0 and not restarted. */
  boolean succeeded() {
    return terminated != null && terminated.exitCode() == 0;
  }

  /**
   * The process exited with {@code exitCode}: restarted at once when {@code restart} (the restart
   * count grows and the run is kept as the last state), else terminated for good.
   */
  void exit(int exitCode, Instant at, boolean restart) {
    Termination run = new Termination(exitCode, startedAt, at);
    if (restart) {
      lastTermination = run;
      restarts++;
      startedAt = at;
    } else {
      terminated = run;
    }
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
    status.put("ready", started() && !terminated());
    status.put("restartCount", restarts);
    status.put("started", started() && !init && !terminated());
    ObjectNode state = status.putObject("state");
    if (lastTermination != null) {
      lastTermination.into(status.putObject("lastState"));
    }
    if (terminated != null) {
      terminated.into(state);
    } else if (!started()) {
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
