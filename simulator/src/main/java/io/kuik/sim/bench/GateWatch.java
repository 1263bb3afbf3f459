package io.kuik.sim.bench;

import io.kuik.model.PullSecretGate;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.world.api.MutatingAdmission;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.validation.PodValidation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.node.ObjectNode;

/**
 * The benchmark's eye on the pull-secret gate: the moment a rewritten pod's gate is removed, the
 * moment it may be scheduled and pull, it reads whether the pod's Secret holds its credential, as
 * the workload reads it for a pod created without the gate. It sits in the API server's admission
 * chain as a webhook that changes nothing, so it sees the update that removes the gate as it is
 * made, with the cluster as it is then.
 */
final class GateWatch {

  private GateWatch() {}

  static void register(
      KuikWorld world, Contender contender, Instant start, List<Workload.Rewrite> rewrites) {
    world
        .cluster()
        .api()
        .mutatingAdmission()
        .register(
            new MutatingAdmission(
                "gate-watch.bench",
                Set.of(ResourceType.POD),
                Set.of(Operation.UPDATE),
                MutatingAdmission.FailurePolicy.IGNORE,
                Duration.ofSeconds(1),
                request -> {
                  released(
                      world, contender, start, rewrites, request.oldObject(), request.object());
                  return MutatingAdmission.Response.allow();
                }));
  }

  private static void released(
      KuikWorld world,
      Contender contender,
      Instant start,
      List<Workload.Rewrite> rewrites,
      ObjectNode before,
      ObjectNode after) {
    if (before == null
        || after == null
        || PullSecretGate.indexIn(PodValidation.gates(before)) < 0
        || !PodValidation.gates(after).isEmpty()) {
      return;
    }
    String namespace = Meta.namespace(after);
    String pod = Meta.name(after);
    for (int i = rewrites.size() - 1; i >= 0; i--) {
      Workload.Rewrite r = rewrites.get(i);
      if (r.released() == null && r.namespace().equals(namespace) && r.pod().equals(pod)) {
        boolean ready =
            contender.serves(
                world.cluster().api().state(),
                namespace,
                r.index(),
                Workload.rotatedAt(world, start, r.index()));
        rewrites.set(
            i, new Workload.Rewrite(r.at(), namespace, pod, r.index(), ready, world.now()));
        return;
      }
    }
  }
}
