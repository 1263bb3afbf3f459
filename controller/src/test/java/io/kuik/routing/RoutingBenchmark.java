package io.kuik.routing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kuik.model.Auth;
import io.kuik.model.Entry;
import io.kuik.model.EntryForm;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import io.kuik.ports.RegistryProber;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * How long the routing decision of one admission takes with 1,000 routing resources, probes
 * answered from a map (as the production prober's cache does during a rollout): the index against a
 * linear scan of every resource for every image. Not a test: a timing claim belongs here, not in an
 * assertion (docs/architecture.md#how-it-is-tested).
 *
 * <p>Run from the repository root:
 *
 * <pre>
 * ./mvnw -B -o -q -pl controller test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=io.kuik.routing.RoutingBenchmark
 * </pre>
 *
 * Optional arguments: warm-up and measured seconds per variant (default 5 10).
 */
public final class RoutingBenchmark {

  private static final int RESOURCES = 1_000;
  private static final int MIRRORS = 10;
  private static final int GROUP_RESOURCES = 190;
  private static final String[] HOSTS = {
    "docker.io", "quay.io", "ghcr.io", "registry.example.com", "gcr.io", "localhost:5000"
  };

  private RoutingBenchmark() {}

  public static void main(String[] args) {
    Duration warmUp = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 5);
    Duration measured = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 10);
    Random random = new Random(42);
    List<RoutingResource> resources = resources(random);
    Pod pod = pod();
    RegistryProber cached = new CachedProber(random);
    Router router = new Router(cached, name -> Optional.empty());
    Map<String, String> namespace = Map.of("kubernetes.io/metadata.name", "team-a");

    RoutingIndex index = RoutingIndex.of(resources);
    LinearCoverage scan = new LinearCoverage(resources);
    RoutingDecision byIndex = router.route(index, pod, namespace);
    RoutingDecision byScan = router.route(scan, pod, namespace);
    if (!byIndex.equals(byScan)) {
      throw new IllegalStateException("the index and the scan decide differently");
    }

    long buildStart = System.nanoTime();
    int builds = 200;
    for (int i = 0; i < builds; i++) {
      RoutingIndex.of(resources);
    }
    long buildNanos = (System.nanoTime() - buildStart) / builds;

    int[] sink = new int[1];
    double indexNanos =
        measure(
            () -> sink[0] += router.route(index, pod, namespace).containers().size(),
            warmUp,
            measured);
    double planNanos =
        measure(
            () -> sink[0] += CandidatePlanner.plan(index, pod, namespace).containers().size(),
            warmUp,
            measured);
    double scanNanos =
        measure(
            () -> sink[0] += router.route(scan, pod, namespace).containers().size(),
            warmUp,
            measured);

    System.out.printf(
        Locale.ROOT,
        "routing one pod of %d containers (%d covered, %d candidates) against %d resources"
            + " (%d ImageMirrors), probes answered from a map%n",
        pod.getSpec().getContainers().size(),
        byIndex.containers().size(),
        candidates(index, pod, namespace),
        RESOURCES,
        MIRRORS);
    System.out.printf(Locale.ROOT, "%-28s %14s %16s%n", "variant", "ns/admission", "admissions/s");
    row("index: route", indexNanos);
    row("index: plan only", planNanos);
    row("linear scan: route", scanNanos);
    System.out.printf(Locale.ROOT, "%-28s %13.1fx%n", "index speed-up", scanNanos / indexNanos);
    System.out.printf(Locale.ROOT, "%-28s %14d%n", "index build (ns)", buildNanos);
  }

  private static int candidates(Coverage coverage, Pod pod, Map<String, String> namespace) {
    return CandidatePlanner.plan(coverage, pod, namespace).containers().stream()
        .mapToInt(c -> c.candidates().size())
        .sum();
  }

  private static void row(String variant, double nanos) {
    System.out.printf(
        Locale.ROOT, "%-28s %14.0f %16.0f%n", variant, nanos, 1_000_000_000.0 / nanos);
  }

  /**
   * Runs {@code admission} for {@code warmUp}, then counts how many run in {@code measured}: time
   * budgets rather than counts, since the two variants differ by orders of magnitude.
   */
  private static double measure(Runnable admission, Duration warmUp, Duration measured) {
    runFor(admission, warmUp);
    long start = System.nanoTime();
    long runs = runFor(admission, measured);
    return (double) (System.nanoTime() - start) / runs;
  }

  private static long runFor(Runnable admission, Duration budget) {
    long end = System.nanoTime() + budget.toNanos();
    long runs = 0;
    do {
      // Batches keep the clock reads out of the measured time.
      for (int i = 0; i < 10; i++) {
        admission.run();
      }
      runs += 10;
    } while (System.nanoTime() < end);
    return runs;
  }

  /**
   * 1,000 resources: 800 ImageAlternatives of three repositories each, 190 of two groups each, and
   * 10 ImageMirrors, 8 of them scoped to other namespaces, as a large cluster might hold.
   */
  private static List<RoutingResource> resources(Random random) {
    List<RoutingResource> resources = new ArrayList<>();
    for (int n = 0; n < RESOURCES - MIRRORS - GROUP_RESOURCES; n++) {
      String app = "app-" + n;
      resources.add(
          alternative(
              "alt-" + n,
              n % 2 == 0 ? RewritePolicy.ON_FAILURE : RewritePolicy.ALWAYS,
              List.of(
                  new Entry(0, EntryForm.REPOSITORY, host(random) + "/team/" + app, null),
                  new Entry(1, EntryForm.REPOSITORY, host(random) + "/backup/" + app, null),
                  new Entry(
                      2,
                      EntryForm.REPOSITORY,
                      "registry.example.com/mirror/" + app,
                      Auth.secretRef("pull")))));
    }
    for (int n = 0; n < GROUP_RESOURCES; n++) {
      resources.add(
          alternative(
              "group-" + n,
              RewritePolicy.ON_FAILURE,
              List.of(
                  new Entry(0, EntryForm.REPOSITORY_GROUP, host(random) + "/org-" + n, null),
                  new Entry(1, EntryForm.REPOSITORY_GROUP, "mirror.gcr.io/org-" + n, null))));
    }
    // The pod's own images are covered by a few of them.
    resources.add(
        alternative(
            "nginx",
            RewritePolicy.ON_FAILURE,
            List.of(
                new Entry(0, EntryForm.REPOSITORY_GROUP, "docker.io/library", null),
                new Entry(
                    1, EntryForm.REPOSITORY_GROUP, "mirror.gcr.io/library", Auth.secretRef("g")))));
    for (int n = 0; n < MIRRORS; n++) {
      LabelSelector elsewhere =
          n < MIRRORS - 2
              ? new io.fabric8.kubernetes.api.model.LabelSelectorBuilder()
                  .addToMatchLabels("kubernetes.io/metadata.name", "team-" + n + "-only")
                  .build()
              : null;
      resources.add(
          new RoutingResource(
              new ResourceId(RoutingKind.IMAGE_MIRROR, "mirror-" + n),
              null,
              null,
              elsewhere,
              n % 2 == 0 ? RewritePolicy.ON_FAILURE : RewritePolicy.ALWAYS,
              List.of(
                  new Entry(
                      0,
                      EntryForm.MIRROR,
                      "mirror-" + n + ".example.com/cache/",
                      Auth.secretRef("mirror")))));
    }
    return resources;
  }

  private static RoutingResource alternative(
      String name, RewritePolicy policy, List<Entry> entries) {
    return new RoutingResource(
        new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, name), null, null, null, policy, entries);
  }

  private static String host(Random random) {
    return HOSTS[random.nextInt(HOSTS.length)];
  }

  /** Five containers: two covered by an alternative, three only by the mirrors. */
  private static Pod pod() {
    List<Container> containers = new ArrayList<>();
    String[] images = {
      "nginx:1.27",
      "registry.example.com/mirror/app-7:3",
      "redis:7",
      "quay.io/other/tool:1",
      "ghcr.io/acme/sidecar@sha256:" + "c".repeat(64)
    };
    for (int i = 0; i < images.length; i++) {
      containers.add(new ContainerBuilder().withName("c" + i).withImage(images[i]).build());
    }
    return new PodBuilder()
        .withNewMetadata()
        .withGenerateName("web-")
        .withNamespace("team-a")
        .addToLabels("app", "web")
        .endMetadata()
        .withNewSpec()
        .withContainers(containers)
        .endSpec()
        .build();
  }

  /** Answers from a map filled once: what the production prober's cache gives a rollout. */
  private static final class CachedProber implements RegistryProber {
    private final Map<String, Availability> answers = new HashMap<>();
    private final Random random;

    CachedProber(Random random) {
      this.random = random;
    }

    @Override
    public List<Availability> probe(List<Probe> candidates) {
      List<Availability> outcomes = new ArrayList<>(candidates.size());
      for (Probe probe : candidates) {
        Availability outcome =
            answers.computeIfAbsent(
                probe.image().toString(),
                image ->
                    random.nextInt(3) == 0 ? Availability.AVAILABLE : Availability.UNREACHABLE);
        outcomes.add(outcome);
        if (outcome == Availability.AVAILABLE) {
          break;
        }
      }
      return outcomes;
    }
  }
}
