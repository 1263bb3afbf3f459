package io.kuik.kube.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.ports.RegistryProber;
import io.kuik.ports.RegistryProber.Availability;
import io.kuik.ports.RegistryProber.Probe;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The webhook's metrics, and the prober wrapper that feeds the probe ones. */
class WebhookMetricsTest {

  private static final Probe ORIGINAL = WebhookRoutingTest.probe("docker.io/acme/app:1.0");
  private static final Probe COPY = WebhookRoutingTest.probe("registry.example.com/acme/app:1.0");

  private final WebhookMetrics metrics = new WebhookMetrics();

  /** A monotonic clock far from zero, as System.nanoTime is: a duration is a difference. */
  private final AtomicLong nanos = new AtomicLong(7_000_000_000L);

  @Test
  void everyAdmissionResultIsExportedFromZero() {
    metrics.admitted(WebhookMetrics.Result.NAMESPACE_UNKNOWN);

    String text = scrape();

    assertEquals(1, value(text, "kuik_webhook_admissions_total{result=\"namespace_unknown\"}"));
    assertEquals(0, value(text, "kuik_webhook_admissions_total{result=\"rewritten\"}"));
    assertEquals(0, value(text, "kuik_webhook_admissions_total{result=\"unchanged\"}"));
    assertEquals(0, value(text, "kuik_webhook_admissions_total{result=\"skipped\"}"));
  }

  @Test
  void everyProbeOutcomeAndAnsweredRequestsAreExportedFromZero() {
    String text = scrape();

    for (Availability outcome : Availability.values()) {
      String label = outcome.name().toLowerCase(java.util.Locale.ROOT);
      assertEquals(0, value(text, "kuik_webhook_probes_total{outcome=\"" + label + "\"}"), label);
    }
    assertEquals(0, value(text, "kuik_webhook_requests_total{code=\"200\",result=\"answered\"}"));
  }

  @Test
  void aPodTheRouterSkippedIsCountedAsSkippedAndNothingElse() {
    metrics.decided(
        new io.kuik.routing.RoutingDecision(
            "imagePullPolicy Never", List.of(), java.util.Map.of(), List.of()));

    String text = scrape();

    assertEquals(1, value(text, "kuik_webhook_admissions_total{result=\"skipped\"}"));
    assertEquals(0, value(text, "kuik_webhook_admissions_total{result=\"unchanged\"}"));
  }

  @Test
  void theMeterPassesAnswersThroughAndCountsEachOutcome() {
    RegistryProber slow =
        candidates -> {
          nanos.addAndGet(40_000_000);
          return List.of(Availability.NOT_FOUND, Availability.AVAILABLE);
        };
    WebhookProbeMeter meter = new WebhookProbeMeter(slow, metrics, nanos::get);

    List<List<Availability>> answers = meter.probeAll(List.of(List.of(ORIGINAL, COPY)));

    assertEquals(List.of(List.of(Availability.NOT_FOUND, Availability.AVAILABLE)), answers);
    String text = scrape();
    assertEquals(1, value(text, "kuik_webhook_probes_total{outcome=\"not_found\"}"));
    assertEquals(1, value(text, "kuik_webhook_probes_total{outcome=\"available\"}"));
    assertEquals(1, value(text, "kuik_webhook_probe_duration_seconds_count"));
    assertEquals(1, value(text, "kuik_webhook_probe_duration_seconds_bucket{le=\"0.05\"}"));
    assertEquals(0, value(text, "kuik_webhook_probe_duration_seconds_bucket{le=\"0.025\"}"));
  }

  @Test
  void theMeterProbesOneContainersCandidatesAsAListOfOne() {
    RegistryProber prober = candidates -> List.of(Availability.AVAILABLE);
    WebhookProbeMeter meter = new WebhookProbeMeter(prober, metrics, nanos::get);

    assertEquals(List.of(Availability.AVAILABLE), meter.probe(List.of(COPY)));
    assertEquals(1, value(scrape(), "kuik_webhook_probes_total{outcome=\"available\"}"));
  }

  @Test
  void theMeterToleratesAProberThatAnswersNothing() {
    RegistryProber silent =
        new RegistryProber() {
          @Override
          public List<Availability> probe(List<Probe> candidates) {
            return null;
          }

          @Override
          public List<List<Availability>> probeAll(List<List<Probe>> candidateLists) {
            return null;
          }
        };
    WebhookProbeMeter meter = new WebhookProbeMeter(silent, metrics, nanos::get);

    assertEquals(null, meter.probeAll(List.of(List.of(ORIGINAL))));
    String scrape = scrape();
    assertTrue(
        scrape
            .lines()
            .filter(line -> line.startsWith("kuik_webhook_probes_total{"))
            .allMatch(line -> line.endsWith(" 0.0")),
        "no outcome counted:\n" + scrape);
  }

  @Test
  void anAnswerIsTimedInSeconds() {
    metrics.served("answered", 200, 30_000_000);

    String text = scrape();
    assertEquals(1, value(text, "kuik_webhook_requests_total{code=\"200\",result=\"answered\"}"));
    assertEquals(1, value(text, "kuik_webhook_admission_duration_seconds_bucket{le=\"0.05\"}"));
    assertEquals(0, value(text, "kuik_webhook_admission_duration_seconds_bucket{le=\"0.025\"}"));
  }

  @Test
  void theProbersOwnCountersAreReadAtEachScrape() {
    try (io.kuik.webhook.OciRegistryProber prober =
        new io.kuik.webhook.OciRegistryProber(io.kuik.webhook.ProberSettings.defaults())) {
      metrics.prober(prober);

      String text = scrape();
      for (String counter :
          List.of(
              "kuik_webhook_registry_requests_total",
              "kuik_webhook_probe_cache_hits_total",
              "kuik_webhook_probes_collapsed_total")) {
        assertEquals(0, value(text, counter), counter + " in\n" + text);
      }
    }
  }

  private String scrape() {
    return io.kuik.kube.Metrics.text(metrics.registry());
  }

  /** The value of the sample line that starts with {@code sample} (name and labels). */
  static double value(String exposition, String sample) {
    for (String line : exposition.split("\n")) {
      if (line.startsWith(sample + " ")) {
        return Double.parseDouble(line.substring(sample.length() + 1).trim().split(" ")[0]);
      }
    }
    throw new AssertionError("no sample " + sample + " in:\n" + exposition);
  }
}
