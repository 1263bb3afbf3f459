package io.kuik.sim.bench;

import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.time.EventLoop;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a user of the cluster sees, sampled on the virtual clock without a request: how long each
 * namespace created during the hour waits until every Always credential it needs is there for its
 * pods ({@link #POLL} resolution), and how long the rotated credential takes to reach every
 * namespace that needs it ({@link #ROTATION_POLL} resolution).
 */
final class UserFigures {

  static final Duration POLL = Duration.ofSeconds(1);
  static final Duration ROTATION_POLL = Duration.ofSeconds(5);

  private final KuikWorld world;
  private final Workload workload;
  private final Contender contender;
  private final Instant start;
  private final Instant end;
  private final List<Duration> namespaceWaits = new ArrayList<>();
  private int namespacesNeverServed;
  private Duration rotationReachedAll;
  private int rotationPending = -1;
  private int rotationTargets;

  UserFigures(KuikWorld world, Workload workload, Contender contender, Duration length) {
    this.world = world;
    this.workload = workload;
    this.contender = contender;
    this.start = world.now();
    this.end = start.plus(length);
  }

  /** Schedules the sampling of the hour, from now. */
  void schedule() {
    EventLoop loop = world.cluster().loop();
    for (int j = 0; j < Workload.NEW_NAMESPACES; j++) {
      String namespace = workload.newNamespace(j);
      Duration created = Workload.NEW_NAMESPACE_EVERY.multipliedBy(j).plusMinutes(2);
      if (start.plus(created).isBefore(end)) {
        loop.schedule(
            created, "sample " + namespace, () -> sampleNamespace(namespace, world.now()));
      }
    }
    if (start.plus(Workload.ROTATION).isBefore(end)) {
      loop.schedule(Workload.ROTATION, "sample the rotation", this::startRotation);
    }
  }

  private boolean rotated(int k) {
    return k == Workload.ROTATED && !world.now().isBefore(start.plus(Workload.ROTATION));
  }

  private void sampleNamespace(String namespace, Instant created) {
    boolean served = true;
    for (int k = 0; k < Workload.ALWAYS && served; k++) {
      served = contender.serves(world.cluster().api().state(), namespace, k, rotated(k));
    }
    if (served) {
      namespaceWaits.add(Duration.between(created, world.now()));
    } else if (world.now().plus(POLL).isAfter(end)) {
      namespacesNeverServed++;
    } else {
      world
          .cluster()
          .loop()
          .schedule(POLL, "sample " + namespace, () -> sampleNamespace(namespace, created));
    }
  }

  private void startRotation() {
    Set<String> targets = new LinkedHashSet<>();
    for (int i = 0; i < workload.size(); i++) {
      if (Workload.selected(i)) {
        targets.add(Workload.namespace(i));
      }
    }
    for (int j = 0; j < Workload.NEW_NAMESPACES; j++) {
      Duration created = Workload.NEW_NAMESPACE_EVERY.multipliedBy(j).plusMinutes(2);
      if (created.compareTo(Workload.ROTATION) < 0) {
        targets.add(workload.newNamespace(j));
      }
    }
    rotationTargets = targets.size();
    sampleRotation(targets, world.now());
  }

  private void sampleRotation(Set<String> pending, Instant rotatedAt) {
    pending.removeIf(
        namespace ->
            contender.serves(world.cluster().api().state(), namespace, Workload.ROTATED, true));
    rotationPending = pending.size();
    if (pending.isEmpty()) {
      rotationReachedAll = Duration.between(rotatedAt, world.now());
    } else if (!world.now().plus(ROTATION_POLL).isAfter(end)) {
      world
          .cluster()
          .loop()
          .schedule(ROTATION_POLL, "sample the rotation", () -> sampleRotation(pending, rotatedAt));
    }
  }

  /** The figures once the hour has run. */
  Result result() {
    List<Duration> sorted = new ArrayList<>(namespaceWaits);
    Collections.sort(sorted);
    return new Result(
        sorted.isEmpty() ? null : sorted.get((sorted.size() - 1) / 2),
        sorted.isEmpty() || namespacesNeverServed > 0 ? null : sorted.get(sorted.size() - 1),
        namespacesNeverServed,
        rotationReachedAll,
        rotationTargets == 0 || rotationPending < 0
            ? 0
            : (rotationTargets - rotationPending) / (double) rotationTargets);
  }

  /**
   * @param namespaceMedian median wait of the new namespaces that were served
   * @param namespaceMax the longest wait, null when one was never served within the hour
   * @param namespacesNever new namespaces never served within the hour
   * @param rotationAll from the rotation until every namespace held the new credential; null when
   *     some never did within the hour
   * @param rotationShare the share of namespaces that held it at the end
   */
  record Result(
      Duration namespaceMedian,
      Duration namespaceMax,
      int namespacesNever,
      Duration rotationAll,
      double rotationShare) {}
}
