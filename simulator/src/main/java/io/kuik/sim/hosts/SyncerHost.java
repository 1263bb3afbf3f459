package io.kuik.sim.hosts;

import io.kuik.kube.syncer.LeaseSettings;
import io.kuik.model.WriteBounds;
import io.kuik.sim.trace.Note;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.registry.Registries;
import io.kuik.syncer.SecretSyncer;
import io.kuik.syncer.SyncerSettings;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs the production {@link SecretSyncer} in the simulated cluster, as a process under its
 * ServiceAccount: start, stop, crash and restart it. A restart loses every piece of the syncer's
 * memory (written set, grace clocks, hashes, queue), because each start builds a new incarnation
 * from nothing but the API server.
 */
public final class SyncerHost {

  private final ApiServer api;
  private final Identity identity;
  private SyncerSettings settings;
  private SyncerProcess process;
  private int incarnations;
  private Duration applyRoundTrip = SyncerProcess.ROUND_TRIP;
  private Consumer<Boolean> availability = ready -> {};
  private List<WriteBounds.Policy> policies = List.of();
  private String leaseName = LeaseSettings.DEFAULT_NAME;
  private Registries registries;

  /** A syncer with {@code settings}, its resync period among them (the chart's is 10 minutes). */
  public SyncerHost(ApiServer api, Identity identity, SyncerSettings settings) {
    this.api = Objects.requireNonNull(api, "api");
    this.identity = Objects.requireNonNull(identity, "identity");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /**
   * The identity a syncer's pod runs as: its ServiceAccount, authenticated by the projected token
   * the kubelet mounts, which is bound to the pod (the chart's policy requires that binding). The
   * pod is {@code <serviceAccount>-0}; the simulator keeps no object for it.
   */
  public static Identity podIdentity(String namespace, String serviceAccount) {
    return Identity.serviceAccountInPod(
        namespace,
        serviceAccount,
        serviceAccount + "-0",
        "pod-uid-" + namespace + "-" + serviceAccount + "-0");
  }

  /**
   * From the next start on, the syncer writes only while these policies and their bindings are in
   * place, watching them by name; without any, it writes unbounded (the host of a bare test).
   */
  public SyncerHost writingOnlyUnder(List<WriteBounds.Policy> policies) {
    this.policies = List.copyOf(policies);
    return this;
  }

  /**
   * As the chart's command line tells the production syncer: its settings, the policies that bound
   * its writes ({@code --admission-policy}, {@code --pod-gates-policy}) and its Lease ({@code
   * --lease-name}).
   */
  public static SyncerHost told(
      ApiServer api, Identity identity, io.kuik.kube.syncer.SyncerRuntimeSettings told) {
    SyncerHost host = new SyncerHost(api, identity, told.syncer());
    host.policies = told.bounds().policies();
    host.leaseName = told.lease().name();
    return host;
  }

  /** The Lease it renews while it releases gates: the production {@code --lease-name}. */
  public String leaseName() {
    return leaseName;
  }

  /**
   * From the next start on, the syncer tries credentials on these registries (the world's); without
   * them, every trial finds no registry to answer (the host of a bare test).
   */
  public SyncerHost tryingCredentialsOn(Registries registries) {
    this.registries = registries;
    return this;
  }

  /** What /readyz answers: informers synced and the admission policy in place. */
  public boolean ready() {
    return process != null && process.ready();
  }

  /** Whether the running incarnation may write now, and why not. */
  public Optional<io.kuik.model.WriteBounds> bounds() {
    return process == null ? Optional.empty() : Optional.of(process.bounds());
  }

  /** Starts a new incarnation: informers list and watch, and the syncer starts once they synced. */
  public void start() {
    if (process != null) {
      return;
    }
    incarnations++;
    api.trace()
        .add(
            new Note.Incarnation(
                api.loop().now(),
                api.trace().actorOf(identity),
                Note.Process.SYNCER,
                Note.Edge.START,
                incarnations));
    process =
        new SyncerProcess(
            api, identity, settings, "syncer#" + incarnations, policies, leaseName, registries);
    process.roundTrip(applyRoundTrip);
    process.onReadiness(ready -> availability.accept(ready));
    process.start();
  }

  /** A clean stop; for the syncer's memory it is the same as a crash. */
  public void stop() {
    halt(Note.Edge.STOP);
  }

  /** Dies at this event boundary: nothing in memory survives. */
  public void crash() {
    halt(Note.Edge.CRASH);
  }

  /** Restarts with other settings (the grace period, say), as a redeploy with new flags would. */
  public void restartWith(SyncerSettings newSettings) {
    halt(Note.Edge.STOP);
    this.settings = Objects.requireNonNull(newSettings, "newSettings");
    start();
  }

  /**
   * From now on, and in later incarnations, each apply takes this long to be answered (20 ms unless
   * set): half on the way to the API server, half on the way back.
   */
  public void applyRoundTrip(Duration roundTrip) {
    if (roundTrip.isNegative()) {
      throw new IllegalArgumentException("a round trip cannot be negative: " + roundTrip);
    }
    applyRoundTrip = roundTrip;
    if (process != null) {
      process.roundTrip(roundTrip);
    }
  }

  public boolean running() {
    return process != null;
  }

  /**
   * From now on, tells {@code availability} when an incarnation's /readyz starts or stops passing
   * ({@link #ready()}), and when it stops or crashes: what its Deployment's available replicas
   * count.
   */
  public void reportAvailability(Consumer<Boolean> availability) {
    this.availability = availability;
  }

  public SyncerSettings settings() {
    return settings;
  }

  public Identity identity() {
    return identity;
  }

  /** The running incarnation's syncer, once its informers have synced. */
  public Optional<SecretSyncer> syncer() {
    return process == null ? Optional.empty() : process.syncer();
  }

  private void halt(Note.Edge how) {
    if (process == null) {
      return;
    }
    api.trace()
        .add(
            new Note.Incarnation(
                api.loop().now(),
                api.trace().actorOf(identity),
                Note.Process.SYNCER,
                how,
                incarnations));
    process.halt();
    process = null;
    availability.accept(false);
  }
}
