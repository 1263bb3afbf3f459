package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kuik.model.WriteBounds;
import io.kuik.syncer.SyncerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The syncer process's settings: the defaults written out (a changed default fails here, not in a
 * cluster), and the bounds of each value, accepted at the edge and refused one past it.
 */
class SyncerRuntimeSettingsTest {

  private static SyncerRuntimeSettings withHealthPort(int port) {
    return new SyncerRuntimeSettings(
        SyncerSettings.defaults("kuik-system"),
        LeaseSettings.defaults(false),
        port,
        SyncerRuntimeSettings.Bounds.defaults());
  }

  @Test
  void theShorthandsTakeTheDefaultTrialsAndPluginRuns() {
    SyncerRuntimeSettings settings = withHealthPort(8081);

    assertEquals(
        new SyncerRuntimeSettings.Trials(Duration.ofSeconds(10), Set.of()), settings.trials());
    assertEquals(
        new SyncerRuntimeSettings.Plugins(
            Path.of("/kuik/plugins"), Duration.ofMinutes(1), 2, 1024 * 1024),
        settings.plugins());
  }

  @Test
  void theDefaultBoundIsTheChartsPolicyForTheReleaseKuikAlone() {
    SyncerRuntimeSettings.Bounds bounds = SyncerRuntimeSettings.Bounds.defaults();

    assertEquals(
        List.of(new WriteBounds.Policy("kuik-pull-secrets", "kuik-pull-secrets")),
        bounds.policies());
    WriteBounds.Policy gates = new WriteBounds.Policy("kuik-pod-gates", "kuik-pod-gates");
    assertEquals(
        List.of(bounds.secrets(), gates),
        new SyncerRuntimeSettings.Bounds(bounds.secrets(), gates).policies(),
        "the Secrets' first");
  }

  @ParameterizedTest(name = "health port {0}")
  @ValueSource(ints = {0, 65535})
  void theHealthPortsEdgesAreAccepted(int port) {
    assertEquals(port, withHealthPort(port).healthPort());
  }

  @ParameterizedTest(name = "health port {0}")
  @ValueSource(ints = {-1, 65536})
  void aHealthPortPastAnEdgeIsRefusedWithItsValue(int port) {
    assertEquals(
        "the health port must be 0 to 65535, got " + port,
        assertThrows(IllegalArgumentException.class, () -> withHealthPort(port)).getMessage());
  }

  @ParameterizedTest(name = "timeout {0} ms, concurrency {1}, output {2}")
  @CsvSource({"1, 1, 1", "60000, 2, 1048576"})
  void pluginRunsOfOneOfEachAreAccepted(long timeoutMillis, int concurrency, long maxOutput) {
    assertEquals(
        concurrency,
        new SyncerRuntimeSettings.Plugins(
                Path.of("/p"), Duration.ofMillis(timeoutMillis), concurrency, maxOutput)
            .concurrency());
  }

  @ParameterizedTest(name = "timeout {0} ms, concurrency {1}, output {2}")
  @CsvSource({"0, 1, 1", "-1, 1, 1", "1, 0, 1", "1, 1, 0"})
  void pluginRunsOfNoneAreRefused(long timeoutMillis, int concurrency, long maxOutput) {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new SyncerRuntimeSettings.Plugins(
                Path.of("/p"), Duration.ofMillis(timeoutMillis), concurrency, maxOutput));
  }

  @ParameterizedTest(name = "trial timeout {0} ms")
  @ValueSource(longs = {0, -1})
  void aTrialTimeoutOfNoTimeIsRefused(long millis) {
    assertThrows(
        IllegalArgumentException.class,
        () -> new SyncerRuntimeSettings.Trials(Duration.ofMillis(millis), Set.of()));
  }
}
