package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LeaseSettingsTest {

  /**
   * client-go's leader-election defaults, as controller-runtime and kube-controller-manager use
   * them: a 15 s lease, a 10 s renew deadline, a 2 s retry period. Written out here, not read from
   * the constants, so that a changed default fails.
   */
  @Test
  void theDefaultsAreClientGos() {
    LeaseSettings defaults = LeaseSettings.defaults(true);

    assertEquals(Duration.ofSeconds(15), defaults.duration(), "lease duration");
    assertEquals(Duration.ofSeconds(10), defaults.renewDeadline(), "renew deadline");
    assertEquals(Duration.ofSeconds(2), defaults.retryPeriod(), "retry period");
    assertEquals("kuik-secret-syncer", defaults.name(), "lease name");
  }

  @ParameterizedTest(name = "duration {0}s, renew {1}s, retry {2}ms is refused")
  @CsvSource({
    // if the lease lasts no longer than the renew deadline, two leaders could overlap
    "10, 10, 2000",
    // if the renew deadline is within one jittered retry, the leader gives up before retrying
    "15, 2, 2000",
    // a zero retry period would spin
    "15, 10, 0"
  })
  void refusesTimingsUnderWhichLeadershipIsUnsafe(long duration, long renew, long retryMillis) {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new LeaseSettings(
                true,
                "kuik-secret-syncer",
                Duration.ofSeconds(duration),
                Duration.ofSeconds(renew),
                Duration.ofMillis(retryMillis)));
  }

  @Test
  void timingsDoNotMatterWithoutElection() {
    assertDoesNotThrow(
        () -> new LeaseSettings(false, "x", Duration.ZERO, Duration.ZERO, Duration.ZERO));
  }

  @Test
  void theRenewDeadlineMustExceedOneJitteredRetryByAMillisecond() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new LeaseSettings(
                true, "x", Duration.ofSeconds(15), Duration.ofMillis(1200), Duration.ofSeconds(1)));
    assertDoesNotThrow(
        () ->
            new LeaseSettings(
                true, "x", Duration.ofSeconds(15), Duration.ofMillis(1201), Duration.ofSeconds(1)));
    assertDoesNotThrow(
        () ->
            new LeaseSettings(
                true, "x", Duration.ofMillis(1202), Duration.ofMillis(1201), Duration.ofSeconds(1)),
        "a lease a millisecond longer than the renew deadline");
  }
}
