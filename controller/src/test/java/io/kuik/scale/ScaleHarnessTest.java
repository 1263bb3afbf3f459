package io.kuik.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scale harness's own parsing, arithmetic and workload, without a process or a clock: what the
 * table shows must come from what was measured. No timing is asserted.
 */
class ScaleHarnessTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  @Test
  void namesEachRequestByVerbResourceNamespaceAndNameAsTheAuthorizerDoes() {
    assertEquals(
        new ApiLedger.Call("list", "pods", "", ""),
        ApiLedger.Call.of("GET", null, "/api/v1/pods?labelSelector=a%3Db&limit=500"));
    assertEquals(
        new ApiLedger.Call("watch", "pods", "", ""),
        ApiLedger.Call.of("GET", null, "/api/v1/pods?allowWatchBookmarks=true&watch=true"));
    assertEquals(
        new ApiLedger.Call("apply", "secrets", "team-1", "kuik-inject-x"),
        ApiLedger.Call.of(
            "PATCH",
            "application/apply-patch+yaml",
            "/api/v1/namespaces/team-1/secrets/kuik-inject-x?fieldManager=kuik&force=true"));
    assertEquals(
        new ApiLedger.Call("patch", "secrets", "team-1", "s"),
        ApiLedger.Call.of(
            "PATCH", "application/merge-patch+json", "/api/v1/namespaces/team-1/secrets/s"));
    assertEquals(
        new ApiLedger.Call("get", "namespaces", "", "team-1"),
        ApiLedger.Call.of("GET", null, "/api/v1/namespaces/team-1"));
    assertEquals(
        new ApiLedger.Call("list", "imagealternatives", "", ""),
        ApiLedger.Call.of("GET", null, "/apis/kuik.enix.io/v1alpha1/imagealternatives"));
    assertEquals(
        new ApiLedger.Call("create", "events", "kuik-system", ""),
        ApiLedger.Call.of("POST", "application/json", "/api/v1/namespaces/kuik-system/events"));
  }

  @Test
  void sumsTheHeapSpacesOfEitherCollectorButNotMetaspace() {
    String serial =
        String.join(
            "\n",
            " def new generation   total 39296K, used 1234K [0x00000000e8000000)",
            "  eden space 34944K,   3% used [0x00000000e8000000)",
            " tenured generation   total 87424K, used 20000K [0x00000000ed550000)",
            " Metaspace       used 38274K, committed 38784K, reserved 1114112K",
            "  class space    used 4280K, committed 4544K, reserved 1048576K");
    String g1 =
        String.join(
            "\n",
            " garbage-first heap   total 524288K, used 240419K [0x0000000740000000)",
            "  region size 2048K, 87 young (178176K), 5 survivors (10240K)",
            " Metaspace       used 38274K, committed 38784K, reserved 1114112K");

    assertEquals(21234, io.kuik.kube.JvmHeap.usedKiB(serial));
    assertEquals(240419, io.kuik.kube.JvmHeap.usedKiB(g1));
    assertEquals(0, io.kuik.kube.JvmHeap.usedKiB("12345: Unable to open socket file"));
  }

  @Test
  void takesNearestRankPercentilesAndShowsAMissingSecretAsBeyondTheWait() {
    Latencies some = Latencies.of(List.of(300L, 100L, 200L, 4_000L), 60_000);
    assertEquals("0.2/4.0", some.cell());
    Latencies missing = Latencies.of(List.of(100L, Long.MAX_VALUE), 60_000);
    assertEquals("0.1/>60", missing.cell());
    assertEquals(1, missing.missing());
    assertEquals("n/a", Latencies.none().cell());
    assertEquals(7, Latencies.percentile(new long[] {7}, 0.99));
  }

  @Test
  void saysHowFarAPassGotWhenTheHarnessStoppedWaiting() {
    assertEquals("42", new ScaleTable.Pass(41.6, 10, 10, true).cell());
    assertEquals(">600(37%)", new ScaleTable.Pass(600.2, 37, 100, false).cell());
    assertEquals("exited", new ScaleTable.Pass(-1, 0, 100, false).cell());
  }

  @Test
  void printsEveryColumnOfTheHeaderInEachRow() {
    ApiLedger.Window window =
        new ApiLedger.Window(
            Map.of("apply secrets", 40L, "list pods", 2L),
            Map.of("apply secrets", 40_000_000L, "list pods", 8_000_000L),
            2,
            9_000_000,
            3);
    ScaleTable.Row row =
        new ScaleTable.Row(
            "after",
            2000,
            200,
            1100,
            41.2,
            180,
            new ScaleTable.Pass(60, 1100, 1100, true),
            window,
            new ScaleTable.Pass(70, 1100, 1100, true),
            window,
            Latencies.of(List.of(500L), 60_000),
            Latencies.none(),
            Latencies.none(),
            Latencies.none(),
            0.42,
            "");

    List<String> header = List.of(ScaleTable.header().trim().split("\\s+"));
    List<String> cells = List.of(ScaleTable.row(row).trim().split("\\s+"));

    assertEquals(header.size(), cells.size(), header + " / " + cells);
    assertEquals(
        List.of(
            "after", "2000", "200", "1100", "41", "180", "60", "42", "40", "2", "70", "2", "9.0",
            "0.5/0.5", "n/a", "n/a", "n/a", "42", "1.14"),
        cells);
  }

  @Test
  void rewritesOnePodInTwentyAsTheWebhookLeavesItAndNeedsEveryAlwaysPairAndEachRewrittenOne() {
    ScaleWorkload workload = new ScaleWorkload(2000);
    List<String> needed = workload.neededSecrets();

    assertEquals(200, workload.namespaces);
    assertEquals(5 * 200 + 100, needed.size());
    assertEquals(needed.size(), new HashSet<>(needed).size(), "no Secret twice");

    Pod rewritten = JSON.unmarshal(workload.podJson(0), Pod.class);
    assertEquals("true", rewritten.getMetadata().getLabels().get(ScaleWorkload.REWRITTEN_LABEL));
    assertEquals(
        "{\"app\":\"ImageAlternative/onfailure-0\"}",
        rewritten.getMetadata().getAnnotations().get("kuik.enix.io/rewritten-by"));
    assertTrue(
        rewritten.getSpec().getImagePullSecrets().stream()
            .anyMatch(r -> r.getName().equals("kuik-inject-imagealternative-onfailure-0")));
    assertEquals(
        "mirror.example.com/onfailure-0/app:1.0",
        rewritten.getSpec().getContainers().get(0).getImage(),
        "the image is the alternative's repository, as the webhook rewrote it");
    assertTrue(needed.contains("team-0/kuik-inject-imagealternative-onfailure-0"));

    Pod plain = JSON.unmarshal(workload.podJson(1), Pod.class);
    assertNull(plain.getMetadata().getLabels().get(ScaleWorkload.REWRITTEN_LABEL));
    assertNull(plain.getMetadata().getAnnotations().get("kuik.enix.io/rewritten-by"));
    int size = workload.podJson(1).length();
    assertTrue(size > 5_500 && size < 6_500, "a pod of about 6 KB: " + size);
  }

  @Test
  void readsTheResyncPeriodAsTheSyncerFlagWritesIt() {
    assertEquals(Duration.ofMinutes(10), ScaleHarness.parseDuration("10m"));
    assertEquals(Duration.ofSeconds(90), ScaleHarness.parseDuration("90s"));
    assertEquals(Duration.ofHours(1), ScaleHarness.parseDuration("1h"));
  }

  @Test
  void readsTheEffectiveResyncPeriodFromTheSyncersMetrics() {
    String metrics =
        "# HELP kuik_syncer_resync_effective_period_seconds How often\n"
            + "kuik_syncer_resync_effective_period_seconds 540.0\n"
            + "kuik_syncer_pairs 5500.0\n";
    assertEquals(java.util.Optional.of(540.0), ScaleHarness.effectivePeriodSeconds(metrics));
    assertEquals(java.util.Optional.empty(), ScaleHarness.effectivePeriodSeconds("kuik_x 1\n"));
  }
}
