package io.kuik.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one run of the harness does, from system properties (the {@code webhook-load} profile passes
 * them from Maven's):
 *
 * <ul>
 *   <li>{@code kuik.load.rates}: the offered rates, admissions a second, in order (default {@code
 *       25,50,100,200,400,800,1600}); the ramp stops after the first rate that does not hold;
 *   <li>{@code kuik.load.seconds}: how long each rate runs (default 60);
 *   <li>{@code kuik.load.warmup}: seconds at the first rate before the table, not reported (default
 *       the lesser of 10 and {@code kuik.load.seconds});
 *   <li>{@code kuik.load.podsPerRollout}: pods of one rollout (default 10);
 *   <li>{@code kuik.load.scenarios}: {@code healthy}, {@code outage} or both (default both);
 *   <li>{@code kuik.load.jfr}: {@code true} records the webhook with JDK Flight Recorder (default
 *       false).
 * </ul>
 *
 * @param jar the runnable jar, {@code kuik-controller-<version>-all.jar}
 * @param out where the report, the logs and the recordings go
 */
record LoadSettings(
    List<Integer> rates,
    Duration step,
    Duration warmup,
    int podsPerRollout,
    List<LoadWorkload.Scenario> scenarios,
    boolean jfr,
    Duration apiTimeout,
    Path jar,
    Path out) {

  /** The chart's {@code webhook.timeoutSeconds}: the API server gives up on the webhook then. */
  static final Duration API_SERVER_TIMEOUT = Duration.ofSeconds(3);

  LoadSettings {
    rates = List.copyOf(rates);
    scenarios = List.copyOf(scenarios);
    if (rates.isEmpty() || rates.stream().anyMatch(rate -> rate < 1)) {
      throw new IllegalArgumentException("kuik.load.rates: give positive rates, e.g. 25,50,100");
    }
    if (step.isNegative() || step.isZero() || warmup.isNegative()) {
      throw new IllegalArgumentException("kuik.load.seconds must be positive");
    }
    if (scenarios.isEmpty()) {
      throw new IllegalArgumentException("kuik.load.scenarios: healthy, outage or both");
    }
  }

  static LoadSettings fromSystemProperties(Path jar, Path out) {
    long seconds = Long.parseLong(System.getProperty("kuik.load.seconds", "60").trim());
    long warmup =
        Long.parseLong(
            System.getProperty("kuik.load.warmup", Long.toString(Math.min(10, seconds))).trim());
    List<Integer> rates = new ArrayList<>();
    for (String rate :
        System.getProperty("kuik.load.rates", "25,50,100,200,400,800,1600").split(",")) {
      if (!rate.isBlank()) {
        rates.add(Integer.parseInt(rate.trim()));
      }
    }
    List<LoadWorkload.Scenario> scenarios = new ArrayList<>();
    for (String name : System.getProperty("kuik.load.scenarios", "healthy,outage").split(",")) {
      if (!name.isBlank()) {
        scenarios.add(LoadWorkload.Scenario.valueOf(name.trim().toUpperCase(Locale.ROOT)));
      }
    }
    return new LoadSettings(
        rates,
        Duration.ofSeconds(seconds),
        Duration.ofSeconds(warmup),
        Integer.parseInt(System.getProperty("kuik.load.podsPerRollout", "10").trim()),
        scenarios,
        Boolean.parseBoolean(System.getProperty("kuik.load.jfr", "false").trim()),
        API_SERVER_TIMEOUT,
        jar,
        out);
  }
}
