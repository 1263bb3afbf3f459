package io.kuik.sim.bench;

import io.kuik.model.RegistryCredential;
import io.kuik.model.SecretNames;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.time.SimRandom;
import io.kuik.sim.world.object.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The benchmark's cluster and its hour: {@code size} namespaces, half labelled {@code tier=a}, each
 * with {@value #LIVE_PODS} live pods (1 in {@value #REWRITTEN_EVERY} rewritten by an OnFailure
 * resource, the others kuik never touched) and {@value #UNRELATED_SECRETS} Secrets of its own apps;
 * 20 ImageAlternatives, the first 10 Always with a namespaceSelector on {@code tier=a}, the other
 * 10 OnFailure; rollouts of rewritten pods all along; a registry outage during which OnFailure
 * rewrites come in a wave; a new {@code tier=a} namespace every {@link #NEW_NAMESPACE_EVERY}; the
 * credential of resource 0 rotated at {@link #ROTATION}; a restart of the contender; and the
 * contender's own periodic work.
 *
 * @param size namespaces besides the install namespace
 * @param seed the simulation's seed; the same seed gives every contender the same workload
 */
record Workload(int size, long seed) {

  static final String INSTALL_NAMESPACE = "kuik-system";
  static final int ALWAYS = 10;
  static final int ON_FAILURE = 10;
  static final Duration LENGTH = Duration.ofMinutes(70);
  static final Duration OUTAGE_START = Duration.ofMinutes(15);
  static final Duration OUTAGE_LENGTH = Duration.ofMinutes(10);
  static final Duration RESTART = Duration.ofMinutes(35);
  static final Duration STEADY_FROM = Duration.ofMinutes(40);
  static final Duration POD_LIFETIME = Duration.ofMinutes(5);
  static final int LIVE_PODS = 10;
  static final int REWRITTEN_EVERY = 20;
  static final int UNRELATED_SECRETS = 20;
  static final Duration NEW_NAMESPACE_EVERY = Duration.ofMinutes(5);
  static final int NEW_NAMESPACES = 12;
  static final Duration ROTATION = Duration.ofMinutes(45);
  static final int ROTATED = 0;
  static final String APPS_REGISTRY = "apps.example";

  /**
   * A pod rewritten by resource {@code index} in {@code namespace}, created at {@code at} and
   * schedulable from {@code released} (its creation, unless it was gated; null while it still is);
   * {@code ready} when its Secret already held the entry's credential once it was schedulable.
   */
  record Rewrite(
      Instant at, String namespace, String pod, int index, boolean ready, Instant released) {
    Rewrite(Instant at, String namespace, String pod, int index, boolean ready) {
      this(at, namespace, pod, index, ready, at);
    }

    String secret() {
      return secretName(index);
    }

    /** How long it waited on the gate; null while it still does. */
    Duration gated() {
      return released == null ? null : Duration.between(at, released);
    }
  }

  static String namespace(int i) {
    return String.format("app-%05d", i);
  }

  static boolean selected(int i) {
    return i % 2 == 0;
  }

  static String resourceName(int index) {
    return "alt-" + index;
  }

  static String secretName(int index) {
    return SecretNames.injected("ImageAlternative", resourceName(index));
  }

  static String registry(int index) {
    return "registry-" + index + ".example";
  }

  static String repository(int index) {
    return registry(index) + "/acme/app";
  }

  static String sourceSecret(int index) {
    return "creds-" + index;
  }

  /** The password of resource {@code index}'s credential, before or after its rotation. */
  static String password(int index, boolean rotated) {
    return "pw-" + index + (rotated && index == ROTATED ? "-rotated" : "-first");
  }

  /**
   * Whether a docker-config Secret holds resource {@code k}'s credential (its first or its rotated
   * password), as a password field or inside an auth field.
   */
  static boolean holds(JsonNode secret, int k, boolean rotated) {
    JsonNode data = secret.path("data").path(".dockerconfigjson");
    if (!data.isString()) {
      return false;
    }
    String config = new String(Base64.getDecoder().decode(data.asString()), StandardCharsets.UTF_8);
    String password = password(k, rotated);
    String auth =
        Base64.getEncoder()
            .encodeToString(("user-" + k + ":" + password).getBytes(StandardCharsets.UTF_8));
    return config.contains("\"" + password + "\"") || config.contains(auth);
  }

  /**
   * The {@code j}-th namespace created during the hour: selected ({@code tier=a}), after the rest.
   */
  String newNamespace(int j) {
    return namespace(size + 2 * j + (size % 2 == 0 ? 0 : 1));
  }

  static boolean always(int index) {
    return index < ALWAYS;
  }

  /** Rollouts a minute outside the outage: one per 200 namespaces, at least one. */
  int rolloutsPerMinute() {
    return Math.max(1, size / 200);
  }

  /** OnFailure rewrites during the outage: one namespace in ten; half at once, half spread. */
  int onFailureRewrites() {
    return Math.max(2, size / 10);
  }

  /**
   * The objects every contender starts from; the install namespace must exist. The kuik CRDs are
   * there whichever the contender: the routing resources are part of the workload.
   */
  void populate(KuikWorld world) {
    world.cluster().installCrds();
    for (int k = 0; k < ALWAYS + ON_FAILURE; k++) {
      source(world, k, false);
      world.actions().registryServesAnonymously(registry(k), List.of(repository(k) + ":1"));
    }
    List<String> apps = new ArrayList<>();
    for (int a = 0; a < 10; a++) {
      apps.add(APPS_REGISTRY + "/shop/app-" + a + ":1");
    }
    world.actions().registryServesAnonymously(APPS_REGISTRY, apps);
    for (int i = 0; i < size; i++) {
      world.objects().createNamespace(namespace(i), Map.of("tier", selected(i) ? "a" : "b"));
      for (int s = 0; s < UNRELATED_SECRETS; s++) {
        world
            .objects()
            .opaqueSecret(
                namespace(i), "app-secret-" + s, Map.of("password", "password-of-app-" + s));
      }
      for (int m = 0; m < LIVE_PODS; m++) {
        int pod = i * LIVE_PODS + m;
        if (pod % REWRITTEN_EVERY == 0) {
          int k = ALWAYS + (pod / REWRITTEN_EVERY) % ON_FAILURE;
          world
              .workloads()
              .rewrittenPod(
                  namespace(i),
                  "live-" + m,
                  "ImageAlternative/" + resourceName(k),
                  repository(k) + ":1");
        } else {
          world.objects().create(livePod(namespace(i), "live-" + m, apps.get(pod % apps.size())));
        }
      }
    }
    for (int k = 0; k < ALWAYS + ON_FAILURE; k++) {
      world.objects().createResource("ImageAlternative", resourceName(k), resourceSpec(k));
    }
  }

  /** Resource {@code k}'s source Secret, with its first or its rotated credential. */
  static void source(KuikWorld world, int k, boolean rotated) {
    world
        .objects()
        .dockerRegistrySecret(
            INSTALL_NAMESPACE,
            sourceSecret(k),
            Map.of(repository(k), RegistryCredential.basic("user-" + k, password(k, rotated))));
  }

  /** A pod kuik never rewrote: one container from the apps' registry, pulled if not present. */
  static ObjectNode livePod(String namespace, String name, String image) {
    ObjectNode pod = Json.object();
    pod.put("apiVersion", "v1");
    pod.put("kind", "Pod");
    ObjectNode meta = pod.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    meta.putObject("labels").put("app", name);
    ObjectNode container = pod.putObject("spec").putArray("containers").addObject();
    container.put("name", "app");
    container.put("image", image);
    container.put("imagePullPolicy", "IfNotPresent");
    return pod;
  }

  static String resourceSpec(int k) {
    return "spec:\n"
        + "  rewritePolicy: "
        + (always(k) ? "Always" : "OnFailure")
        + "\n"
        + (always(k) ? "  namespaceSelector:\n    matchLabels: {tier: a}\n" : "")
        + "  alternatives:\n"
        + "  - repository: "
        + repository(k)
        + "\n"
        + "    auth:\n"
        + "      secretRef: {name: "
        + sourceSecret(k)
        + "}\n";
  }

  /**
   * Schedules the hour on the world's loop, from now; the contender restarts at {@link #RESTART}.
   * Returns the rewrites as they will happen, filled in while the loop runs.
   */
  List<Rewrite> schedule(KuikWorld world, Contender contender) {
    List<Rewrite> rewrites = new ArrayList<>();
    Instant start = world.now();
    GateWatch.register(world, contender, start, rewrites);
    SimRandom random = world.cluster().loop().fork("benchmark-workload");
    var loop = world.cluster().loop();
    int[] pods = {0};
    // Always rollouts, all hour long, in the selected namespaces.
    long minutes = LENGTH.toMinutes() - 6;
    for (long m = 0; m < minutes; m++) {
      for (int r = 0; r < rolloutsPerMinute(); r++) {
        Duration at = Duration.ofMinutes(m).plusMillis(random.nextInt(60_000));
        int ns = 2 * random.nextInt((size + 1) / 2);
        int k = random.nextInt(ALWAYS);
        rollout(world, contender, start, rewrites, pods, at, ns, k);
      }
    }
    // The registry outage: OnFailure rewrites, half in a wave, half spread over the outage.
    loop.schedule(
        OUTAGE_START,
        "original registry down",
        () -> world.faults().registryDown("original.example"));
    loop.schedule(
        OUTAGE_START.plus(OUTAGE_LENGTH),
        "original registry up",
        () -> world.faults().registryUp("original.example"));
    for (int r = 0; r < onFailureRewrites(); r++) {
      Duration at =
          r % 2 == 0
              ? OUTAGE_START.plusMillis(random.nextInt(5_000))
              : OUTAGE_START.plusMillis(random.nextInt((int) OUTAGE_LENGTH.toMillis()));
      int ns = random.nextInt(size);
      int k = ALWAYS + random.nextInt(ON_FAILURE);
      String pod = "rescue-" + pods[0]++;
      loop.schedule(
          at,
          "rewrite " + pod,
          () -> create(world, contender, start, rewrites, namespace(ns), pod, k));
      // Rolled back to the original once the registry is back.
      Duration back = OUTAGE_START.plus(OUTAGE_LENGTH).plusMillis(random.nextInt(300_000));
      loop.schedule(
          back, "roll back " + pod, () -> world.workloads().deletePod(namespace(ns), pod));
    }
    loop.schedule(RESTART, "contender restarts", contender::restart);
    for (int j = 0; j < NEW_NAMESPACES; j++) {
      String name = newNamespace(j);
      loop.schedule(
          NEW_NAMESPACE_EVERY.multipliedBy(j).plusMinutes(2),
          "namespace " + name + " created",
          () -> world.objects().createNamespace(name, Map.of("tier", "a")));
    }
    loop.schedule(ROTATION, "credential of resource 0 rotated", () -> source(world, ROTATED, true));
    return rewrites;
  }

  private void rollout(
      KuikWorld world,
      Contender contender,
      Instant start,
      List<Rewrite> rewrites,
      int[] pods,
      Duration at,
      int ns,
      int k) {
    String pod = "web-" + pods[0]++;
    var loop = world.cluster().loop();
    loop.schedule(
        at,
        "rollout " + pod,
        () -> create(world, contender, start, rewrites, namespace(ns), pod, k));
    loop.schedule(
        at.plus(POD_LIFETIME),
        "rollout replaces " + pod,
        () -> world.workloads().deletePod(namespace(ns), pod));
  }

  private static void create(
      KuikWorld world,
      Contender contender,
      Instant start,
      List<Rewrite> rewrites,
      String namespace,
      String pod,
      int k) {
    boolean rotated = rotatedAt(world, start, k);
    boolean ready = contender.serves(world.cluster().api().state(), namespace, k, rotated);
    if (contender.gates(world.cluster().api().state(), world.now())) {
      // Its pulls wait for the gate's release: whether it is early is decided then (GateWatch).
      world
          .workloads()
          .rewrittenPodGated(
              namespace, pod, "ImageAlternative/" + resourceName(k), repository(k) + ":1");
      rewrites.add(new Rewrite(world.now(), namespace, pod, k, false, null));
      return;
    }
    world
        .workloads()
        .rewrittenPod(namespace, pod, "ImageAlternative/" + resourceName(k), repository(k) + ":1");
    rewrites.add(new Rewrite(world.now(), namespace, pod, k, ready));
  }

  /** Whether a pod of resource {@code k} pulls with the rotated credential now. */
  static boolean rotatedAt(KuikWorld world, Instant start, int k) {
    return k == ROTATED && !world.now().isBefore(start.plus(ROTATION));
  }
}
