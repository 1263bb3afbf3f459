package io.kuik.sim.dsl;

import io.kuik.sim.Cluster;
import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.time.SimRandom;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import java.time.Duration;
import java.time.Instant;

/**
 * A kuik installation in a simulated cluster, driven with kubectl-level verbs: the scenario DSL
 * that the features' steps and the explorer call, and nothing below it. It acts through API
 * requests under real identities, so RBAC and the chart's admission policy apply to everything it
 * does. Its verbs come in facets:
 *
 * <ul>
 *   <li>{@link #install()}: kuik's releases, its syncer and webhook processes, their restarts;
 *   <li>{@link #objects()}: namespaces, Secrets, routing resources, any manifest;
 *   <li>{@link #workloads()}: pods and Deployments, and their containers' lives;
 *   <li>{@link #actions()}: what registries hold, and people's actions (kubectl, Velero, Helm, a
 *       person or a bot writing as themselves);
 *   <li>{@link #faults()}: faults a correct syncer must survive, from the {@code faults} modules;
 *   <li>{@link #views()}: what a person sees with kubectl, and what the node did;
 *   <li>{@link #history()}: what happened, from the trace;
 *   <li>{@link #providers()}: the clouds, the providers the syncer mints with, and their bound.
 * </ul>
 */
public final class KuikWorld {

  /** A cluster administrator, as a person running kubectl. */
  public static final Identity ADMIN = Identity.person("alice", "system:masters");

  public static final Duration RESYNC_PERIOD = Duration.ofMinutes(10);

  /** The chart's default timeoutSeconds for the pod webhook. */
  public static final Duration WEBHOOK_TIMEOUT = Duration.ofSeconds(3);

  private final Cluster cluster;
  private final Install install = new Install(this);
  private final ClusterObjects objects = new ClusterObjects(this);
  private final Workloads workloads = new Workloads(this);
  private final Actions actions = new Actions(this);
  private final Faults faults = new Faults(this);
  private final Views views = new Views(this);
  private final History history = new History(this);
  private final Providers providers = new Providers(this);

  public KuikWorld(long seed) {
    this.cluster = Cluster.create(seed);
  }

  /** A world whose kuik releases are installed from these chart files. */
  public KuikWorld(long seed, ChartFiles chart) {
    this.cluster = Cluster.create(seed, chart);
  }

  /**
   * The cluster below the DSL, for the simulator's own tools that assemble actors of their own
   * ({@code kuik plan}, the benchmark). Steps and the explorer never reach it: the architecture
   * tests hold them to the facets.
   */
  public Cluster cluster() {
    return cluster;
  }

  public Install install() {
    return install;
  }

  public ClusterObjects objects() {
    return objects;
  }

  public Workloads workloads() {
    return workloads;
  }

  public Actions actions() {
    return actions;
  }

  public Faults faults() {
    return faults;
  }

  public Views views() {
    return views;
  }

  public History history() {
    return history;
  }

  public Providers providers() {
    return providers;
  }

  // ---- time ---------------------------------------------------------------------------------

  public Instant now() {
    return cluster.loop().now();
  }

  /** How long the world has run, on the virtual clock. */
  public Duration elapsed() {
    return cluster.loop().elapsed();
  }

  public void pass(Duration duration) {
    cluster.loop().runFor(duration);
  }

  /** A stream of random numbers of its own for {@code component}, derived from the world's seed. */
  public SimRandom random(String component) {
    return cluster.loop().fork(component);
  }

  ApiServer api() {
    return cluster.api();
  }
}
