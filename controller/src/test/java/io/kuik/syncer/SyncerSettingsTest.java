package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SyncerSettingsTest {

  static final Targeting TARGETING = new Targeting("kuik-system", true);

  private static SyncerSettings settings(
      long graceMs,
      long debounceMs,
      long baseMs,
      long capMs,
      double qps,
      int burst,
      long spreadMs) {
    return new SyncerSettings(
        "kuik-system",
        Duration.ofMillis(graceMs),
        Duration.ofMillis(debounceMs),
        Duration.ofMillis(baseMs),
        Duration.ofMillis(capMs),
        TARGETING,
        qps,
        burst,
        Duration.ofMillis(spreadMs),
        SyncerSettings.DEFAULT_RESYNC_SHARE,
        SyncerSettings.DEFAULT_MAX_IN_FLIGHT,
        false,
        ProviderSettings.NONE);
  }

  @Test
  void theDefaultsAreTheDocumentedOnes() {
    SyncerSettings defaults = SyncerSettings.defaults("kuik-system");
    assertEquals(Duration.ofMinutes(15), defaults.grace());
    assertEquals(Duration.ofMillis(500), defaults.debounce());
    assertEquals(Duration.ofSeconds(1), defaults.retryBase());
    assertEquals(Duration.ofMinutes(5), defaults.retryCap());
    assertEquals(20, defaults.writeQps());
    assertEquals(50, defaults.writeBurst());
    assertEquals(Duration.ofMinutes(10), defaults.resyncPeriod());
    assertEquals(0.5, defaults.resyncShare());
    assertEquals(8, defaults.maxInFlight());
    assertEquals(TARGETING, defaults.targeting());
  }

  @ParameterizedTest(name = "if the resync share is {0}, expect accepted {1}")
  @CsvSource({
    "0.01, true",
    "0.5, true",
    "1, true",
    "0, false",
    "-0.5, false",
    "1.01, false",
    "NaN, false"
  })
  void theResyncShareIsAShareOfTheWriteBudget(double share, boolean accepted) {
    SyncerSettings defaults = SyncerSettings.defaults("kuik-system");
    if (accepted) {
      assertEquals(share, defaults.withResyncShare(share).resyncShare());
    } else {
      assertThrows(IllegalArgumentException.class, () -> defaults.withResyncShare(share));
    }
  }

  @ParameterizedTest(name = "if at most {0} applies may be in flight, expect accepted {1}")
  @CsvSource({"1, true", "64, true", "0, false", "-1, false"})
  void atLeastOneApplyMayBeInFlight(int maxInFlight, boolean accepted) {
    SyncerSettings defaults = SyncerSettings.defaults("kuik-system");
    if (accepted) {
      assertEquals(maxInFlight, defaults.withMaxInFlight(maxInFlight).maxInFlight());
    } else {
      assertEquals(
          "maxInFlight must be at least 1, got " + maxInFlight,
          assertThrows(IllegalArgumentException.class, () -> defaults.withMaxInFlight(maxInFlight))
              .getMessage());
    }
  }

  @ParameterizedTest(name = "grace {0}, debounce {1}, retry {2}..{3}, {4}/s burst {5}, spread {6}")
  @CsvSource({
    "0, 0, 1, 1, 0.1, 1, 0",
    "900000, 500, 1000, 1000, 20, 50, 600000",
  })
  void acceptsZeroGraceDebounceAndSpreadAndAnEqualCap(
      long grace, long debounce, long base, long cap, double qps, int burst, long spread) {
    assertEquals(
        Duration.ofMillis(cap),
        settings(grace, debounce, base, cap, qps, burst, spread).retryCap());
  }

  @ParameterizedTest(
      name = "refuses grace {0}, debounce {1}, retry {2}..{3}, {4}/s burst {5}, spread {6}")
  @CsvSource({
    "-1, 500, 1000, 2000, 20, 50, 0",
    "1000, -1, 1000, 2000, 20, 50, 0",
    "1000, 500, 0, 2000, 20, 50, 0",
    "1000, 500, 1000, 0, 20, 50, 0",
    "1000, 500, 2000, 1999, 20, 50, 0",
    "1000, 500, 1000, 2000, 0, 50, 0",
    "1000, 500, 1000, 2000, -1, 50, 0",
    "1000, 500, 1000, 2000, 20, 0, 0",
    "1000, 500, 1000, 2000, 20, 50, -1",
  })
  void refusesWhatCannotWork(
      long grace, long debounce, long base, long cap, double qps, int burst, long spread) {
    assertThrows(
        IllegalArgumentException.class,
        () -> settings(grace, debounce, base, cap, qps, burst, spread));
  }

  @Test
  void aRefusalNamesTheSettingWhatItMustBeAndTheValue() {
    assertEquals(
        "grace must be zero or more, got PT-0.001S",
        assertThrows(IllegalArgumentException.class, () -> settings(-1, 500, 1000, 2000, 20, 50, 0))
            .getMessage());
    assertEquals(
        "retryBase must be positive, got PT0S",
        assertThrows(IllegalArgumentException.class, () -> settings(1000, 500, 0, 2000, 20, 50, 0))
            .getMessage());
    assertEquals(
        "retryCap must be positive, got PT0S",
        assertThrows(IllegalArgumentException.class, () -> settings(1000, 500, 1000, 0, 20, 50, 0))
            .getMessage(),
        "a zero cap is named as such, not as shorter than the base");
  }

  @Test
  void theMintRetryMayStayAtItsFirstWaitButNeverStartAtZeroOrShrink() {
    Duration min = ProviderSettings.DEFAULT_MIN_VALIDITY;
    Duration second = Duration.ofSeconds(1);
    assertEquals(second, new ProviderSettings(Map.of(), min, second, second).retryCap());
    assertThrows(
        IllegalArgumentException.class,
        () -> new ProviderSettings(Map.of(), min, Duration.ZERO, second));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ProviderSettings(Map.of(), min, second.multipliedBy(2), second));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ProviderSettings(Map.of(), min.negated(), second, second));
    assertEquals(
        Duration.ZERO, new ProviderSettings(Map.of(), Duration.ZERO, second, second).minValidity());
  }

  @Test
  void theProvidersBoundChangesOnlyTheBoundAndTheWriteLeadComesOnTopOfIt() {
    ProviderSettings bound = ProviderSettings.NONE.withMinValidity(Duration.ofMinutes(30));
    assertEquals(Duration.ofMinutes(30), bound.minValidity());
    assertEquals(ProviderSettings.DEFAULT_RETRY_BASE, bound.retryBase());
    assertEquals(ProviderSettings.DEFAULT_RETRY_CAP, bound.retryCap());
    assertEquals(Duration.ofMinutes(31), bound.leaveBefore());
    assertEquals(java.util.Optional.empty(), bound.provider("ecr-credential-provider"));
  }

  @Test
  void eachWitherChangesOnlyItsOwnSetting() {
    SyncerSettings defaults = SyncerSettings.defaults("kuik-system");
    Targeting other = new Targeting("kuik-other", false);
    assertEquals(Duration.ofMinutes(3), defaults.withGrace(Duration.ofMinutes(3)).grace());
    assertEquals(other, defaults.withTargeting(other).targeting());
    assertEquals(defaults.grace(), defaults.withTargeting(other).grace());
    SyncerSettings limited = defaults.withWriteLimit(5, 7);
    assertEquals(5, limited.writeQps());
    assertEquals(7, limited.writeBurst());
    assertEquals(
        Duration.ofMinutes(3), defaults.withResyncPeriod(Duration.ofMinutes(3)).resyncPeriod());
    assertEquals(defaults.debounce(), limited.debounce());
    assertEquals(defaults.maxInFlight(), limited.withResyncShare(0.25).maxInFlight());
    assertEquals(3, defaults.withMaxInFlight(3).withResyncShare(0.25).maxInFlight());
  }
}
