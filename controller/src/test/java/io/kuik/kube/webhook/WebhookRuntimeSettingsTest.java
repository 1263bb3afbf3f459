package io.kuik.kube.webhook;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kuik.webhook.ProberSettings;
import io.kuik.webhook.WebhookServer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The webhook's settings refuse what no process could serve, and only that. */
class WebhookRuntimeSettingsTest {

  private static WebhookRuntimeSettings withHealthPort(int port, Duration shutdownDelay) {
    return new WebhookRuntimeSettings(
        "kuik-system",
        WebhookServer.Settings.of(
            new InetSocketAddress(8443), Path.of("tls.crt"), Path.of("tls.key")),
        port,
        ProberSettings.defaults(),
        shutdownDelay);
  }

  @ParameterizedTest(name = "health port {0}")
  @ValueSource(ints = {0, 1, 8081, 65535})
  void everyPortATcpServerCanTakeIsAccepted(int port) {
    assertEquals(port, withHealthPort(port, Duration.ZERO).healthPort());
  }

  @ParameterizedTest(name = "health port {0}")
  @ValueSource(ints = {-1, 65536, Integer.MAX_VALUE})
  void aPortOutsideTcpsIsRefusedWithItsValue(int port) {
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> withHealthPort(port, Duration.ZERO));
    assertEquals("the health port must be 0 to 65535, got " + port, refused.getMessage());
  }

  @ParameterizedTest(name = "shutdown delay {0} ms")
  @ValueSource(longs = {0, 1, 5000})
  void aShutdownDelayOfZeroOrMoreIsAccepted(long millis) {
    assertDoesNotThrow(() -> withHealthPort(8081, Duration.ofMillis(millis)));
  }

  @ParameterizedTest(name = "shutdown delay {0} ms")
  @ValueSource(longs = {-1, -5000})
  void aNegativeShutdownDelayIsRefused(long millis) {
    assertThrows(
        IllegalArgumentException.class, () -> withHealthPort(8081, Duration.ofMillis(millis)));
  }
}
