package io.kuik.sim.bench;

import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.registry.CloudProvider;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import tools.jackson.databind.JsonNode;

/**
 * Provider credentials against the workaround people run ({@link CronRefresh}), over 48 simulated
 * hours of ECR's 12-hour tokens (docs/behaviour.md#provider-credentials): in each of {@code
 * namespaces} namespaces, and in a namespace created every 4 hours, a new pod every 30 minutes,
 * living an hour, each pulling at its start; the cloud's API down for a while, or not; and kuik's
 * syncer crashing and starting again every 7 hours. kuik routes the pods through an Always
 * ImageAlternative whose ECR entry injects the credential it mints (its webhook probing with it);
 * the cron job's pods name the ECR image and its Secret themselves. Measured from the registry's
 * and the API server's side: the pulls the registry refused (for an expired token, or none), and
 * the minutes a namespace that needs the credential held no valid one (sampled each minute, judged
 * by the cloud's own ledger).
 */
public final class TokenBenchmark {

  static final String PLUGIN = "ecr-credential-provider";
  static final String REGISTRY = "123456789012.dkr.ecr.eu-west-1.amazonaws.com";
  static final String ECR_IMAGE = REGISTRY + "/acme/app:1.0";
  static final String ORIGINAL = "docker.io/acme/app:1.0";
  static final String INJECTED = "kuik-inject-imagealternative-ecr";
  static final Duration LENGTH = Duration.ofHours(48);
  static final Duration POD_EVERY = Duration.ofMinutes(30);
  static final Duration POD_LIFETIME = Duration.ofHours(1);
  static final Duration FIRST_POD = Duration.ofMinutes(10);
  static final Duration RESTART_EVERY = Duration.ofHours(7);
  static final Duration NEW_NAMESPACE_EVERY = Duration.ofHours(4);
  static final long SEED = 35;

  /** One run's plugin outage: none, or {@code length} from {@code at}. */
  public record Outage(String label, Duration at, Duration length) {}

  public static final List<Outage> OUTAGES =
      List.of(
          new Outage("no outage", null, null),
          new Outage("4 h outage (< margin)", Duration.ofMinutes(350), Duration.ofHours(4)),
          new Outage("8 h outage (> margin)", Duration.ofMinutes(350), Duration.ofHours(8)));

  /** What one contender's run came to. */
  public record Result(
      String contender,
      Outage outage,
      long pulls,
      long refused,
      long expired,
      long namespaceMinutes,
      long tokens) {}

  private TokenBenchmark() {}

  /** Every outage, kuik and cron-refresh each, printed as a table to {@code out}. */
  public static void run(int namespaces, PrintStream out) {
    out.println(
        "Simulated 48 h of 12-hour ECR tokens, "
            + namespaces
            + " namespaces and one more every 4 h, a new pod in each every 30 min living 1 h;"
            + " kuik's syncer restarted every 7 h; the cloud's API down from 5 h 50 min for the"
            + " outage's length.");
    out.println();
    out.println(
        "| run | contender | pulls | refused | of which expired token | namespace-minutes without"
            + " a valid credential | tokens minted |");
    out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    for (Outage outage : OUTAGES) {
      for (Result r : List.of(kuik(namespaces, outage), cron(namespaces, outage))) {
        out.printf(
            "| %s | %s | %d | %d | %d | %d | %d |%n",
            outage.label(),
            r.contender(),
            r.pulls(),
            r.refused(),
            r.expired(),
            r.namespaceMinutes(),
            r.tokens());
        out.flush();
      }
    }
  }

  static Result kuik(int namespaces, Outage outage) {
    KuikWorld world = world(outage);
    world.providers().declare(PLUGIN, "*.dkr.ecr.*.amazonaws.com");
    List<String> tenants = tenants(world, namespaces);
    world.install().install("kuik-system");
    world
        .objects()
        .createResource(
            "ImageAlternative",
            "ecr",
            String.join(
                "\n",
                "spec:",
                "  rewritePolicy: Always",
                "  namespaceSelector: {matchLabels: {tier: prod}}",
                "  alternatives:",
                "  - repository: docker.io/acme/app",
                "  - repository: " + REGISTRY + "/acme/app",
                "    auth: {provider: " + PLUGIN + ", injectPullSecret: true}"));
    world.faults().syncerCrashesAndRestartsEvery(RESTART_EVERY, LENGTH);
    pods(world, tenants, ORIGINAL, List.of());
    newNamespaces(world, ORIGINAL, List.of());
    return measure("kuik", world, outage, INJECTED);
  }

  static Result cron(int namespaces, Outage outage) {
    KuikWorld world = world(outage);
    List<String> tenants = tenants(world, namespaces);
    CloudProvider cloud = world.providers().cloud(PLUGIN);
    new CronRefresh(world.cluster().api(), cloud, world.random("cron-refresh")).schedule(LENGTH);
    pods(world, tenants, ECR_IMAGE, List.of(CronRefresh.SECRET));
    newNamespaces(world, ECR_IMAGE, List.of(CronRefresh.SECRET));
    return measure("cron-refresh", world, outage, CronRefresh.SECRET);
  }

  private static KuikWorld world(Outage outage) {
    KuikWorld world = new KuikWorld(SEED);
    CloudProvider cloud = world.providers().cloud(PLUGIN, REGISTRY).validity(Duration.ofHours(12));
    world.actions().registryServesAnonymously(REGISTRY, List.of(ECR_IMAGE));
    world.actions().registryServesAnonymously("docker.io", List.of(ORIGINAL));
    if (outage.at() != null) {
      cloud.downAt(world.now().plus(outage.at()), outage.length());
    }
    return world;
  }

  private static List<String> tenants(KuikWorld world, int namespaces) {
    List<String> tenants = new ArrayList<>();
    for (int i = 1; i <= namespaces; i++) {
      String name = "tenant-" + i;
      world.objects().createNamespace(name, Map.of("tier", "prod"));
      tenants.add(name);
    }
    return tenants;
  }

  private static void pods(
      KuikWorld world, List<String> tenants, String image, List<String> pullSecrets) {
    world
        .cluster()
        .loop()
        .schedule(
            FIRST_POD,
            "the workload starts",
            () ->
                tenants.forEach(
                    ns ->
                        world
                            .workloads()
                            .churn(
                                ns,
                                "web",
                                image,
                                pullSecrets,
                                POD_EVERY,
                                POD_LIFETIME,
                                LENGTH.minus(FIRST_POD))));
  }

  /** A namespace created every 4 hours, whose pods churn from then on. */
  private static void newNamespaces(KuikWorld world, String image, List<String> pullSecrets) {
    for (int n = 1; NEW_NAMESPACE_EVERY.multipliedBy(n).compareTo(LENGTH) < 0; n++) {
      String name = "new-" + n;
      Duration at = NEW_NAMESPACE_EVERY.multipliedBy(n);
      world
          .cluster()
          .loop()
          .schedule(
              at,
              "a new namespace",
              () -> {
                world.objects().createNamespace(name, Map.of("tier", "prod"));
                world
                    .workloads()
                    .churn(
                        name, "web", image, pullSecrets, POD_EVERY, POD_LIFETIME, LENGTH.minus(at));
              });
    }
  }

  /**
   * Runs the 48 hours, sampling each minute (at the half-minutes) from {@link #FIRST_POD} on every
   * namespace that needs the credential (labelled {@code tier=prod}), then reads the trace.
   */
  private static Result measure(String name, KuikWorld world, Outage outage, String secret) {
    CloudProvider cloud = world.providers().cloud(PLUGIN);
    long[] without = {0};
    BiPredicate<ClusterState, String> valid =
        (state, ns) ->
            state
                .get(ResourceType.SECRET, ns, secret)
                .map(
                    s ->
                        passwords(s).stream()
                            .anyMatch(
                                p ->
                                    cloud
                                        .expiryOf(p)
                                        .map(e -> world.now().isBefore(e))
                                        .orElse(false)))
                .orElse(false);
    Instant end = world.now().plus(LENGTH);
    // Samples at the half-minutes: a namespace is created, and pods start, on whole minutes.
    world.pass(FIRST_POD.minusSeconds(30));
    while (world.now().isBefore(end)) {
      world.pass(Duration.ofMinutes(1));
      ClusterState state = world.cluster().api().state();
      for (tools.jackson.databind.node.ObjectNode namespace :
          state.list(ResourceType.NAMESPACE, null)) {
        String ns = io.kuik.sim.world.object.Meta.name(namespace);
        if ("prod".equals(io.kuik.sim.world.object.Meta.labels(namespace).get("tier"))
            && !valid.test(state, ns)) {
          without[0]++;
        }
      }
    }
    long pulls = 0;
    long refused = 0;
    long expired = 0;
    for (TraceRecord record : world.history().records()) {
      if (record instanceof Note.RegistryNote note
          && note.event() == Note.RegistryEvent.PULL
          && note.host().name().equals(REGISTRY)) {
        pulls++;
        if (note.outcome().startsWith("Unauthorized")) {
          refused++;
          if (note.outcome().contains("expired")) {
            expired++;
          }
        }
      }
    }
    return new Result(name, outage, pulls, refused, expired, without[0], cloud.issued());
  }

  /** The passwords of a Secret's {@code .dockerconfigjson}, read by the bench itself. */
  private static List<String> passwords(tools.jackson.databind.node.ObjectNode secret) {
    List<String> out = new ArrayList<>();
    String data = Json.text(secret, "data", ".dockerconfigjson");
    if (data == null) {
      return out;
    }
    JsonNode config =
        Json.parse(new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8));
    for (Map.Entry<String, JsonNode> auth : config.path("auths").properties()) {
      out.add(auth.getValue().path("password").asString(""));
    }
    return out;
  }
}
