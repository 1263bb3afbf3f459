package io.kuik.sim.explore;

import io.kuik.sim.check.WorldView;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.time.SimRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Draws an explorer run's actions from the seed's stream and from what the world holds when each is
 * drawn (a pod to delete is one that exists), and the virtual time after each. The draws are made
 * in one fixed order, so that a seed always draws the same run.
 */
final class Draw {

  private static final List<String> TIERS = List.of("prod", "dev", "test");
  private static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
  private static final List<String> HOSTS = List.of("quay.io", "ghcr.io");

  private final KuikWorld world;
  private final SimRandom random;
  private final ActionMix mix;
  private final Map<String, Integer> rotations = new HashMap<>();
  private int pods;

  Draw(KuikWorld world, SimRandom random, ActionMix mix) {
    this.world = world;
    this.random = random;
    this.mix = mix;
    // The stage rotates every source once before anything is drawn.
    Explorer.SOURCES.forEach(source -> rotations.put(source, 1));
  }

  /** The setup's namespaces team-a..c and resources r1 and r2. */
  List<Action> setup() {
    List<Action> setup = new ArrayList<>();
    for (String ns : Explorer.NAMESPACES.subList(0, 3)) {
      setup.add(new Action.CreateNamespace(ns, tier()));
    }
    for (String r : Explorer.RESOURCES.subList(0, 2)) {
      setup.add(new Action.CreateResource(r, spec(r)));
    }
    return setup;
  }

  /** The next step's action: a stopped syncer may start, else one drawn from the mix. */
  Action next() {
    if (!world.install().syncerRunning() && random.chance(0.35)) {
      return new Action.SyncerStarts();
    }
    return mix.pick(random).map(this::draw).orElseGet(Action.Nothing::new);
  }

  /** How long the world runs after a step: mostly under a minute, sometimes up to 20 minutes. */
  Duration advance() {
    int roll = random.nextInt(100);
    if (roll < 70) {
      return Duration.ofSeconds(1 + random.nextInt(60));
    }
    if (roll < 93) {
      return Duration.ofSeconds(60 + random.nextInt(240));
    }
    return Duration.ofSeconds(300 + random.nextInt(900));
  }

  private Action draw(Choice choice) {
    return switch (choice) {
      case CREATE_RESOURCE -> {
        String r = random.pick(Explorer.RESOURCES);
        yield new Action.CreateResource(r, spec(r));
      }
      case CHANGE_RESOURCE ->
          orSkip(pickResource().map(r -> new Action.ChangeResource(r, spec(r))));
      case DELETE_RESOURCE -> orSkip(pickResource().map(Action.DeleteResource::new));
      case CREATE_NAMESPACE -> {
        String ns = random.pick(Explorer.NAMESPACES);
        yield new Action.CreateNamespace(ns, tier());
      }
      case LABEL_NAMESPACE ->
          orSkip(
              pickActiveNamespace().map(ns -> new Action.LabelNamespace(ns, random.pick(TIERS))));
      case DELETE_NAMESPACE -> orSkip(pickActiveNamespace().map(Action.DeleteNamespace::new));
      case REWRITE_POD -> rewritePod();
      case DELETE_POD ->
          orSkip(pickPod(false).map(p -> new Action.DeletePod(p.namespace(), p.name())));
      case CONTAINER_EXITS -> {
        int exitCode = random.chance(0.5) ? 0 : 1;
        yield orSkip(
            pickPod(true).map(p -> new Action.ContainerExits(p.namespace(), p.name(), exitCode)));
      }
      case ROTATE_SOURCE -> {
        String source = random.pick(Explorer.SOURCES);
        yield new Action.RotateSource(source, rotations.merge(source, 1, Integer::sum));
      }
      case PERSON_DELETES_SECRET -> orSkip(pickManagedSecret());
      case NOTHING -> new Action.Nothing();
      case REGISTRY_DOWN_OR_UP -> {
        String host = random.pick(HOSTS);
        yield random.chance(0.5) ? new Action.RegistryDown(host) : new Action.RegistryUp(host);
      }
      case SYNCER_CRASHES -> new Action.SyncerCrashes();
      case SYNCER_CRASHES_AND_RESTARTS -> new Action.SyncerCrashesAndRestarts();
      case DROP_WATCH_EVENTS -> new Action.DropWatchEvents(faultWindow());
      case DELAY_WATCH_EVENTS -> {
        Duration window = faultWindow();
        yield new Action.DelayWatchEvents(Duration.ofSeconds(1 + random.nextInt(20)), window);
      }
      case EXPIRE_WATCHES -> new Action.ExpireWatches();
      case API_OUTAGE -> new Action.ApiOutage(faultWindow());
      case PROVIDER_DOWN -> new Action.ProviderDown(faultWindow());
      case POLICY_AWAY -> new Action.PolicyAway(random.chance(0.5), faultWindow());
    };
  }

  private Action rewritePod() {
    Optional<String> ns = pickActiveNamespace();
    Optional<String> resource = pickResource(true);
    if (ns.isEmpty() || resource.isEmpty()) {
      return new Action.Skip();
    }
    List<String> repositories = new ArrayList<>();
    view().resources().get(resource.get()).entries().forEach(e -> repositories.add(e.repository()));
    String image = random.pick(repositories) + ":" + (1 + random.nextInt(3));
    String pod = "pod-" + (++pods);
    String restartPolicy = random.pick(RESTART_POLICIES);
    return new Action.RewritePod(ns.get(), pod, restartPolicy, resource.get(), image);
  }

  private static Action orSkip(Optional<? extends Action> action) {
    return action.isPresent() ? action.get() : new Action.Skip();
  }

  /** No label, tier=prod or tier=dev: the tier a new namespace gets, null for none. */
  private String tier() {
    int roll = random.nextInt(3);
    return roll == 0 ? null : roll == 1 ? "prod" : "dev";
  }

  private Spec spec(String resource) {
    String policy = random.chance(0.5) ? "Always" : "OnFailure";
    Spec.Selector selector = Spec.Selector.values()[random.nextInt(3)];
    List<String> pool =
        List.of(
            "quay.io/" + resource + "/app",
            "quay.io/" + resource + "/db",
            "ghcr.io/shared/" + resource);
    List<Spec.Alternative> alternatives = new ArrayList<>();
    for (int i = 0; i < pool.size(); i++) {
      boolean last = i == pool.size() - 1;
      if (random.chance(0.6) || (last && alternatives.isEmpty())) {
        alternatives.add(new Spec.Alternative(pool.get(i), random.pick(Explorer.SOURCES)));
      }
    }
    return new Spec(policy, selector, alternatives);
  }

  private Duration faultWindow() {
    return Duration.ofSeconds(10 + random.nextInt((int) Bounds.MAX_FAULT_WINDOW.toSeconds() - 9));
  }

  // ---- picking from what exists --------------------------------------------------------------

  private WorldView view() {
    return world.views().adminView(Explorer.INSTALL);
  }

  private Optional<String> pickResource() {
    return pickResource(false);
  }

  /**
   * A resource to act on; the provider's resource only when {@code withProvided} (its pods pull
   * with the provider's tokens; it is never changed or deleted, so that every run keeps it).
   */
  private Optional<String> pickResource(boolean withProvided) {
    List<String> names = new ArrayList<>(view().resources().keySet());
    if (!withProvided) {
      names.remove(Explorer.PROVIDED);
    }
    return names.isEmpty() ? Optional.empty() : Optional.of(random.pick(names));
  }

  private Optional<String> pickActiveNamespace() {
    List<String> names = new ArrayList<>();
    for (WorldView.NamespaceView ns : view().namespaces().values()) {
      if (Explorer.NAMESPACES.contains(ns.name()) && !ns.terminating()) {
        names.add(ns.name());
      }
    }
    return names.isEmpty() ? Optional.empty() : Optional.of(random.pick(names));
  }

  /** A rewritten pod; with {@code running}, one whose container runs now as the kubelet sees it. */
  private Optional<WorldView.PodView> pickPod(boolean running) {
    List<WorldView.PodView> found = new ArrayList<>();
    for (WorldView.PodView pod : view().pods()) {
      if (pod.rewriter() != null
          && (!running
              || "Running".equals(world.views().kubeletPhase(pod.namespace(), pod.name())))) {
        found.add(pod);
      }
    }
    return found.isEmpty() ? Optional.empty() : Optional.of(random.pick(found));
  }

  private Optional<Action> pickManagedSecret() {
    List<WorldView.InjectSecret> found = new ArrayList<>(view().injectSecrets().values());
    if (found.isEmpty()) {
      return Optional.empty();
    }
    WorldView.InjectSecret s = random.pick(found);
    return Optional.of(new Action.PersonDeletesSecret(s.namespace(), s.name()));
  }
}
