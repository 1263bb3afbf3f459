package io.kuik.sim.explore;

import io.kuik.model.RegistryCredential;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.time.SimRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One concrete step of an explorer run, with everything it needs already drawn: which resource,
 * which pod, which window. A run is a list of them ({@link Script}), so that it replays exactly,
 * and so that a subset of it replays too when a failing run is shrunk. Each acts through the DSL
 * only, and says what it did in the action log.
 */
sealed interface Action {

  /** What the action log says it did. */
  String describe();

  /** Does it. {@code drops} is the run's stream for the watch events a drop window loses. */
  void run(KuikWorld world, SimRandom drops);

  /**
   * Whether it can be done in the world as it is now. A drawn action always can; one of a shrunk
   * script may not (the container it stops never started), and is then left out.
   */
  default boolean applies(KuikWorld world) {
    return true;
  }

  /** A step with no action: its pick found nothing, or a shrink took the action out. */
  record Skip() implements Action {
    @Override
    public String describe() {
      return "";
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {}
  }

  record Nothing() implements Action {
    @Override
    public String describe() {
      return "nothing happens";
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {}
  }

  // ---- people's actions ---------------------------------------------------------------------

  record CreateResource(String name, Spec spec) implements Action {
    @Override
    public String describe() {
      return "create resource " + name;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.objects().createResource("ImageAlternative", name, spec.yaml());
    }
  }

  record ChangeResource(String name, Spec spec) implements Action {
    @Override
    public String describe() {
      return "change resource " + name + " " + spec.summary();
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.objects().changeResource("ImageAlternative", name, spec.yaml());
    }
  }

  record DeleteResource(String name) implements Action {
    @Override
    public String describe() {
      return "delete resource " + name;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.objects().deleteResource("ImageAlternative", name);
    }
  }

  /** A namespace labelled {@code tier=<tier>}, or unlabelled when {@code tier} is null. */
  record CreateNamespace(String name, String tier) implements Action {
    Map<String, String> labels() {
      return tier == null ? Map.of() : Map.of("tier", tier);
    }

    @Override
    public String describe() {
      return "create namespace " + name + " " + labels();
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.objects().createNamespace(name, labels());
    }
  }

  record LabelNamespace(String name, String tier) implements Action {
    @Override
    public String describe() {
      return "label namespace " + name + " tier=" + tier;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.objects().labelNamespace(name, "tier", tier);
    }
  }

  record DeleteNamespace(String name) implements Action {
    @Override
    public String describe() {
      return "delete namespace " + name;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.objects().deleteNamespace(name);
    }
  }

  /** A pod as kuik's webhook leaves it after rewriting it to {@code image} of {@code resource}. */
  record RewritePod(
      String namespace, String pod, String restartPolicy, String resource, String image)
      implements Action {
    @Override
    public String describe() {
      return "pod "
          + namespace
          + "/"
          + pod
          + " ("
          + restartPolicy
          + ") rewritten by "
          + resource
          + " to "
          + image;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world
          .workloads()
          .rewrittenPod(namespace, pod, "ImageAlternative/" + resource, image, restartPolicy);
    }
  }

  record DeletePod(String namespace, String pod) implements Action {
    @Override
    public String describe() {
      return "delete pod " + namespace + "/" + pod;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.workloads().deletePod(namespace, pod);
    }
  }

  record ContainerExits(String namespace, String pod, int exitCode) implements Action {
    @Override
    public String describe() {
      return "the container of pod " + namespace + "/" + pod + " exits " + exitCode;
    }

    @Override
    public boolean applies(KuikWorld world) {
      return world.views().appRunning(namespace, pod);
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.workloads().containerExits(namespace, pod, exitCode);
    }
  }

  /**
   * The source Secret's {@code rotation}-th credentials: user {@code a} or {@code b} (its last
   * letter) with password {@code pw<rotation>} for quay.io; src-a also holds one for ghcr.io, so
   * that entries on src-b for ghcr.io are left out, with a Warning event.
   */
  record RotateSource(String source, int rotation) implements Action {
    @Override
    public String describe() {
      return "rotate source " + source;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      String user = source.substring(source.length() - 1);
      Map<String, RegistryCredential> auths = new LinkedHashMap<>();
      auths.put("quay.io", RegistryCredential.basic(user, "pw" + rotation));
      if (source.equals("src-a")) {
        auths.put("ghcr.io", RegistryCredential.basic(user + "-ghcr", "pw" + rotation));
      }
      world.objects().dockerRegistrySecret(Explorer.INSTALL, source, auths);
    }
  }

  record PersonDeletesSecret(String namespace, String name) implements Action {
    @Override
    public String describe() {
      return "person deletes " + namespace + "/" + name;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.objects().deleteSecret(namespace, name);
    }
  }

  // ---- faults ---------------------------------------------------------------------------------

  record RegistryDown(String host) implements Action {
    @Override
    public String describe() {
      return "registry " + host + " down";
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.faults().registryDown(host);
    }
  }

  record RegistryUp(String host) implements Action {
    @Override
    public String describe() {
      return "registry " + host + " up";
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.faults().registryUp(host);
    }
  }

  record SyncerCrashes() implements Action {
    @Override
    public String describe() {
      return "syncer crashes";
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.faults().syncerCrashes();
    }
  }

  record SyncerCrashesAndRestarts() implements Action {
    @Override
    public String describe() {
      return "syncer crashes and restarts";
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.faults().syncerCrashesAndRestarts();
    }
  }

  /** A crashed syncer started again (the explorer's steps give a stopped syncer its chance). */
  record SyncerStarts() implements Action {
    @Override
    public String describe() {
      return "syncer starts";
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.faults().syncerRestarts();
    }
  }

  /** Each watch event to the syncer lost with probability {@link #P} for the window. */
  record DropWatchEvents(Duration window) implements Action {
    static final double P = 0.5;

    public DropWatchEvents {
      Objects.requireNonNull(window, "window");
    }

    @Override
    public String describe() {
      return "watch events to the syncer dropped (p=" + P + ") for " + window;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.faults().dropSyncerWatchEvents(P, drops, window);
    }
  }

  record DelayWatchEvents(Duration extra, Duration window) implements Action {
    public DelayWatchEvents {
      Objects.requireNonNull(extra, "extra");
      Objects.requireNonNull(window, "window");
    }

    @Override
    public String describe() {
      return "watch events to the syncer delayed " + extra + " for " + window;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.faults().delaySyncerWatchEvents(extra, window);
    }
  }

  record ExpireWatches() implements Action {
    @Override
    public String describe() {
      return "the syncer's watches expire";
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.faults().expireSyncerWatches();
    }
  }

  record ApiOutage(Duration window) implements Action {
    public ApiOutage {
      Objects.requireNonNull(window, "window");
    }

    @Override
    public String describe() {
      return "api-server outage (503) for " + window;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.faults().apiServerUnavailable(window);
    }
  }

  /** The cloud's API behind the provider plugin fails for {@code window}: every mint exits 1. */
  record ProviderDown(Duration window) implements Action {
    public ProviderDown {
      Objects.requireNonNull(window, "window");
    }

    @Override
    public String describe() {
      return "provider " + Explorer.PLUGIN + " down for " + window;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.providers().downFor(Explorer.PLUGIN, window);
    }
  }

  /** The admission policy (or its binding) deleted, and created again after {@code window}. */
  record PolicyAway(boolean binding, Duration window) implements Action {
    public PolicyAway {
      Objects.requireNonNull(window, "window");
    }

    @Override
    public String describe() {
      return "admission policy" + (binding ? " binding" : "") + " deleted for " + window;
    }

    @Override
    public void run(KuikWorld world, SimRandom drops) {
      world.faults().policyAway(binding, window);
    }
  }
}
