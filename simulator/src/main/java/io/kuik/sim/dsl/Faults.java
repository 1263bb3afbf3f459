package io.kuik.sim.dsl;

import io.kuik.sim.faults.SyncerCrashes;
import io.kuik.sim.faults.WatchFaults;
import io.kuik.sim.time.SimRandom;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.watch.WatchInfo;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * The DSL's faults, each carried out by its module in {@code io.kuik.sim.faults}, whose header
 * states its fault model: only faults a correct syncer must survive.
 */
public final class Faults {

  /** How the trace names the syncer's watches when a fault window opens on them. */
  private static final String SYNCER_WATCHES = "syncer watches";

  private final KuikWorld world;

  Faults(KuikWorld world) {
    this.world = world;
  }

  /**
   * Every request answered 503 ServiceUnavailable for {@code window}, starting now; the window's
   * edges are marked in the trace.
   */
  public void apiServerUnavailable(Duration window) {
    world.cluster().outages().apiServerUnavailable(window);
  }

  /** Every request about objects named {@code name} answered 503 for {@code window}, from now. */
  public void apiServerUnavailableFor(String name, Duration window) {
    world.cluster().outages().unavailableFor(name, window);
  }

  public void registryDown(String host) {
    world.cluster().registryOutages().down(host);
  }

  public void registryUp(String host) {
    world.cluster().registryOutages().up(host);
  }

  /** The first release's admission policy cannot be evaluated, until {@link #policyHeals}. */
  public void policyFails() {
    world.cluster().policyFailure().fail(world.install().admissionPolicyName());
  }

  public void policyHeals() {
    world.cluster().policyFailure().heal(world.install().admissionPolicyName());
  }

  /**
   * The first release's admission policy ({@code binding} false) or its binding deleted now and
   * created again by Helm after {@code window}; the window's edges are marked in the trace.
   */
  public void policyAway(boolean binding, Duration window) {
    Install install = world.install();
    world
        .cluster()
        .policyAbsence()
        .awayFor(
            install.admissionPolicyName() + (binding ? " binding" : ""),
            binding ? install::deleteThePolicyBinding : install::deleteThePolicy,
            install::createThePolicy,
            window);
  }

  /** The first release's admission policy and binding are back now, if either was away. */
  public void policyBack() {
    Install install = world.install();
    world.cluster().policyAbsence().back(install.admissionPolicyName(), install::createThePolicy);
  }

  // ---- the syncer's process -----------------------------------------------------------------

  public void syncerCrashes() {
    SyncerCrashes.crash(world.install().syncer());
  }

  public void syncerCrashesAndRestarts() {
    SyncerCrashes.crashAndRestart(world.install().syncer());
  }

  /**
   * From now on, every {@code every} for {@code total}, the syncer crashes and starts again at once
   * (a node drained, the pod evicted and replaced).
   */
  public void syncerCrashesAndRestartsEvery(Duration every, Duration total) {
    for (long n = 1; every.multipliedBy(n).compareTo(total) <= 0; n++) {
      world
          .cluster()
          .loop()
          .schedule(every.multipliedBy(n), "the syncer crashes", this::syncerCrashesAndRestarts);
    }
  }

  /** The syncer is started again after a crash; nothing when it runs. */
  public void syncerRestarts() {
    SyncerCrashes.restart(world.install().syncer());
  }

  // ---- the syncer's watches -------------------------------------------------------------------

  /** Each watch event to the syncer lost with {@code probability} for {@code window}. */
  public void dropSyncerWatchEvents(double probability, SimRandom random, Duration window) {
    watchFaults().dropFor(syncerWatches(), SYNCER_WATCHES, probability, random, window);
  }

  /** Every watch event to the syncer {@code extra} late for {@code window}. */
  public void delaySyncerWatchEvents(Duration extra, Duration window) {
    watchFaults().delayFor(syncerWatches(), SYNCER_WATCHES, extra, window);
  }

  /** The syncer's watches expire (410 Gone): its informers list again. */
  public void expireSyncerWatches() {
    watchFaults().expire(syncerWatches());
  }

  /** Every watch fault heals now and the syncer's watches expire, so that it relists. */
  public void healSyncerWatches(String why) {
    watchFaults().heal(syncerWatches(), SYNCER_WATCHES, why);
  }

  private WatchFaults watchFaults() {
    return world.cluster().watchFaults();
  }

  private Predicate<WatchInfo> syncerWatches() {
    Identity syncer = world.install().syncer().identity();
    return w -> w.identity().equals(syncer);
  }
}
