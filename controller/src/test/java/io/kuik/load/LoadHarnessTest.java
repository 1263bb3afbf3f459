package io.kuik.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The load harness's own arithmetic and parsing, without a process or a clock: what the table shows
 * must come from what was measured, and the workload must never name a registry off loopback. No
 * timing is asserted.
 */
class LoadHarnessTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final JsonMapper TREE = JsonMapper.builder().build();
  private static final LoadWorkload.Hosts HOSTS =
      new LoadWorkload.Hosts(
          "127.0.0.1:5001", "127.0.0.1:5002", "127.0.0.1:5003", "127.0.0.1:5004");

  @Test
  void readsACounterByItsExactSampleAndSumsItsLabelledSamples() {
    String exposition =
        String.join(
            "\n",
            "# HELP kuik_webhook_probes_total Candidate images probed",
            "# TYPE kuik_webhook_probes_total counter",
            "kuik_webhook_probes_total{outcome=\"available\"} 12.0",
            "kuik_webhook_probes_total{outcome=\"not_found\"} 3.0",
            "kuik_webhook_registry_requests_total 42.0",
            "kuik_webhook_registry_requests_created 1.7E9",
            "");

    assertEquals(OptionalDouble.of(42), Exposition.sample(exposition, Measures.REGISTRY_REQUESTS));
    assertEquals(
        OptionalDouble.of(3),
        Exposition.sample(exposition, "kuik_webhook_probes_total{outcome=\"not_found\"}"));
    assertEquals(OptionalDouble.of(15), Exposition.sum(exposition, "kuik_webhook_probes_total"));
    assertEquals(OptionalDouble.empty(), Exposition.sample(exposition, "kuik_webhook_probes"));
    assertEquals(OptionalDouble.empty(), Exposition.sample("", Measures.REGISTRY_REQUESTS));
  }

  @Test
  void countsOnlyTheManifestHeadsOfTheAccessLog() {
    String log =
        String.join(
            "\n",
            "time=\"2026-12-01T10:05:41Z\" level=info msg=\"response completed\""
                + " http.request.method=HEAD http.request.uri=/v2/a/b/manifests/1",
            "127.0.0.1 - - [01/Dec/2026:10:05:41 +0000] \"HEAD /v2/a/b/manifests/1 HTTP/1.1\" 404"
                + " 91 \"\" \"Java-http-client/17.0.15\"",
            "127.0.0.1 - - [01/Dec/2026:10:05:41 +0000] \"GET /v2/ HTTP/1.1\" 200 2 \"\" \"curl\"",
            "127.0.0.1 - - [01/Dec/2026:10:05:41 +0000] \"PUT /v2/a/b/manifests/1 HTTP/1.1\" 201 0"
                + " \"\" \"Java-http-client/17.0.15\"",
            "127.0.0.1 - - [01/Dec/2026:10:05:42 +0000] \"HEAD /v2/a/b/blobs/sha256:00 HTTP/1.1\""
                + " 200 0 \"\" \"x\"",
            "127.0.0.1 - - [01/Dec/2026:10:05:42 +0000] \"HEAD /v2/mirror/localhost/mesh/proxy/"
                + "manifests/1.0 HTTP/1.1\" 200 0 \"\" \"Java-http-client/17.0.15\"",
            "");

    assertEquals(2, AccessLog.manifestHeads(log));
  }

  @Test
  void countsEachLoggedHeadOnceAcrossReadsThatEndMidLine(@TempDir Path directory)
      throws IOException {
    Path file = directory.resolve("registry.log");
    String head =
        "127.0.0.1 - - [01/Dec/2026:10:05:41 +0000] \"HEAD /v2/a/manifests/1 HTTP/1.1\" 200 0\n";
    Files.writeString(file, head + head.substring(0, 30));
    AccessLog log = new AccessLog(file);

    assertEquals(1, log.headsSinceLastCall());
    Files.writeString(file, head.substring(30) + head, StandardOpenOption.APPEND);
    assertEquals(2, log.headsSinceLastCall());
    assertEquals(0, log.headsSinceLastCall());
  }

  @Test
  void summarizesEachOutcomeAndCountsAnUnansweredAdmissionAsATimeout() {
    StepSamples samples = new StepSamples(10, Duration.ofSeconds(3));
    for (int i = 0; i < 6; i++) {
      samples.answered(i, millis(10 * (i + 1)), true);
    }
    samples.answered(6, millis(70), false);
    samples.timedOut(7, millis(3000));
    samples.failed(8, millis(5));
    // index 9: never answered
    samples.sent(3, millis(12));

    StepSamples.Summary summary = samples.summary();

    assertEquals(10, summary.sent());
    assertEquals(7, summary.held());
    assertEquals(6, summary.routed());
    assertEquals(2, summary.timeouts());
    assertEquals(1, summary.errors());
    assertEquals(Duration.ofMillis(40), summary.p50(), "5th of 5,10,20,...,60,70,3000,3000");
    assertEquals(Duration.ofMillis(3000), summary.p99());
    assertEquals(Duration.ofMillis(3000), summary.max());
    assertEquals(Duration.ofMillis(12), summary.lateness());
    assertEquals(0.6, summary.routedShare(), 1e-9);
  }

  @Test
  void takesTheNearestRankPercentile() {
    long[] sorted = new long[100];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = i + 1;
    }
    assertEquals(50, StepSamples.percentile(sorted, 0.50));
    assertEquals(99, StepSamples.percentile(sorted, 0.99));
    assertEquals(100, StepSamples.percentile(sorted, 1.0));
    assertEquals(7, StepSamples.percentile(new long[] {7}, 0.99));
    assertEquals(0, StepSamples.percentile(new long[0], 0.5));
  }

  @Test
  void printsEveryColumnOfTheHeaderInEachRowAndNaForWhatWasNotMeasured() {
    StepSamples samples = new StepSamples(100, Duration.ofSeconds(3));
    for (int i = 0; i < 100; i++) {
      samples.answered(i, millis(i < 99 ? 4 : 250), i != 0);
    }
    LoadTable.Row row =
        new LoadTable.Row(
            100,
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            samples.summary(),
            10,
            25,
            -1,
            Duration.ofMillis(500),
            Duration.ofMillis(200),
            Duration.ofMillis(20),
            61.4,
            -1,
            180,
            1.5,
            "");

    List<String> header = List.of(LoadTable.header().trim().split("\\s+"));
    List<String> cells = List.of(LoadTable.row(row).trim().split("\\s+"));

    assertEquals(header.size(), cells.size(), header + " / " + cells);
    assertEquals(
        List.of(
            "100", "100", "100", "100.0", "99.0", "4.0", "4.0", "250", "0", "0", "0.0", "10",
            "2.50", "n/a", "25%", "5.00", "61", "n/a", "180", "10%", "1%", "1.5"),
        cells);
    assertTrue(row.holds(), "99% routed in time holds");
  }

  @Test
  void addsUpTheCpuOfEachThreadPoolFromTheProcStatFields() {
    String stat =
        "4242 (kuik-admission-) S 1 4200 4200 0 -1 4194368 1200 0 0 0 250 31 0 0 20 0 40 0 9 0 0";

    assertEquals(281, ThreadCpu.ticksOf(stat));
    assertEquals("kuik-admission", ThreadCpu.group("kuik-admission-12"));
    assertEquals("GC Thread", ThreadCpu.group("GC Thread#1"));
    assertEquals("C2 CompilerThre", ThreadCpu.group("C2 CompilerThre"));
    assertEquals(
        "kuik-admission 150%, GC Thread 10%",
        ThreadCpu.busiest(
            Map.of("kuik-admission", 100L, "GC Thread", 40L, "idle", 7L),
            Map.of("kuik-admission", 400L, "GC Thread", 60L, "idle", 7L),
            Duration.ofSeconds(2),
            5));
  }

  @Test
  void namesOnlyRegistriesOnLoopback() {
    for (LoadWorkload.Scenario scenario : LoadWorkload.Scenario.values()) {
      LoadWorkload workload = new LoadWorkload(HOSTS, scenario, 10);
      List<String> hosts = new ArrayList<>();
      for (long pod = 0; pod < 50; pod += 5) {
        imagesOf(workload.review(pod)).forEach(image -> hosts.add(image.registry()));
      }
      Matcher registries =
          Pattern.compile("(?:repository|repositoryGroup|path): ([^/\\s]+)")
              .matcher(String.join("\n", workload.routingResources()));
      while (registries.find()) {
        hosts.add(registries.group(1));
      }
      assertFalse(hosts.isEmpty());
      for (String host : hosts) {
        assertTrue(
            host.equals("localhost") || host.startsWith("127.0.0.1:"),
            host + " is not on loopback");
      }
    }
  }

  @Test
  void givesEveryPodOfARolloutTheSameImagesAndEachRolloutANewAppVersion() {
    LoadWorkload workload = new LoadWorkload(HOSTS, LoadWorkload.Scenario.HEALTHY, 10);

    List<String> first = images(workload.review(10));
    assertEquals(first, images(workload.review(19)), "pods 10 and 19: rollout 1");
    List<String> next = images(workload.review(20));
    assertNotEquals(first.get(1), next.get(1), "rollout 2 rolls out a new app version");
    assertEquals(
        List.of(
            "127.0.0.1:5001/base/tools:3",
            "127.0.0.1:5003/apps/app-2:r2",
            "localhost/mesh/proxy:1.2",
            "127.0.0.1:5001/upstream/logger:1"),
        next);
    assertTrue(
        workload.securedImages(2, 3).get("apps/app-2").contains("r2"),
        "the secured registry holds the copy");
  }

  @Test
  void putsEveryFourthRolloutsAppOnTheSilentRegistryInTheOutage() {
    LoadWorkload workload = new LoadWorkload(HOSTS, LoadWorkload.Scenario.OUTAGE, 5);

    assertEquals("127.0.0.1:5004/vendor/app-0:r0", images(workload.review(0)).get(1));
    assertEquals("127.0.0.1:5003/apps/app-1:r1", images(workload.review(5)).get(1));
    assertEquals("127.0.0.1:5004/vendor/app-4:r4", images(workload.review(20)).get(1));
    Map<String, List<String>> copies = workload.securedImages(0, 8);
    assertEquals(List.of("r0"), copies.get("vendor/app-0"));
    assertEquals(List.of("r4"), copies.get("vendor/app-4"));
    assertEquals(List.of("r1"), copies.get("apps/app-1"));
    assertFalse(copies.containsKey("apps/app-0"));
  }

  @Test
  void sendsAnAdmissionReviewOfAPodCreationOfAFewKilobytes() {
    byte[] body = new LoadWorkload(HOSTS, LoadWorkload.Scenario.HEALTHY, 10).review(7);

    AdmissionReview review =
        JSON.unmarshal(new String(body, StandardCharsets.UTF_8), AdmissionReview.class);

    assertEquals("CREATE", review.getRequest().getOperation());
    assertEquals("team-00", review.getRequest().getNamespace());
    Pod pod = JSON.convertValue(review.getRequest().getObject(), Pod.class);
    assertEquals(1, pod.getSpec().getInitContainers().size());
    assertEquals(3, pod.getSpec().getContainers().size());
    assertTrue(body.length > 4_000 && body.length < 8_000, body.length + " bytes");
  }

  private static List<String> images(byte[] review) {
    return imagesOf(review).stream().map(ImageReference::toString).toList();
  }

  /** The images of the pod in the review, init containers first, read as plain JSON. */
  private static List<ImageReference> imagesOf(byte[] review) {
    JsonNode spec = TREE.readTree(review).at("/request/object/spec");
    List<ImageReference> images = new ArrayList<>();
    for (String list : List.of("initContainers", "containers")) {
      for (JsonNode container : spec.path(list)) {
        images.add(parse(container.path("image").asString()));
      }
    }
    return images;
  }

  private static ImageReference parse(String image) {
    try {
      return ImageReference.parse(image);
    } catch (InvalidImageReferenceException invalid) {
      throw new AssertionError(invalid);
    }
  }

  private static long millis(long ms) {
    return Duration.ofMillis(ms).toNanos();
  }
}
