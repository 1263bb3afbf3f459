package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The prober's settings refuse what could not work: no time to probe, or no probe at a time. */
class ProberSettingsTest {

  private static final Duration SECOND = Duration.ofSeconds(1);

  @Test
  void oneProbeAtATimeAndANoCacheAreEnough() {
    ProberSettings least = new ProberSettings(Duration.ofNanos(1), Duration.ZERO, Set.of(), 1);

    assertEquals(1, least.maxConcurrentProbes());
    assertEquals(Duration.ZERO, least.cacheTtl());
  }

  @Test
  void noProbeAtATimeNoTimeoutOrANegativeCacheIsRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> new ProberSettings(SECOND, SECOND, Set.of(), 0));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ProberSettings(Duration.ZERO, SECOND, Set.of(), 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ProberSettings(SECOND, Duration.ofNanos(-1), Set.of(), 1));
  }
}
