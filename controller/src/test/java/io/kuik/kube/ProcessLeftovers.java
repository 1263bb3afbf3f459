package io.kuik.kube;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a component run in the test's JVM may leave behind once stopped: threads of its own (every
 * thread kuik starts is named {@code kuik-...}) and ports still bound.
 */
public final class ProcessLeftovers {

  private ProcessLeftovers() {}

  /**
   * The one kuik thread that lives as long as the JVM: InformerHealth's check, started when the
   * class is first used, by whichever component comes first, and shared by every later one.
   */
  private static final String JVM_WIDE = "kuik-informer-health";

  /** kuik's live threads now, to compare with after a stop. */
  public static Set<Thread> kuikThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("kuik-"))
        .filter(t -> !t.getName().equals(JVM_WIDE))
        .collect(Collectors.toSet());
  }

  /** Waits a few seconds for every kuik thread not in {@code before} to end; fails naming them. */
  public static void awaitNoThreadBut(Set<Thread> before) {
    await("every thread it started ended")
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                assertEquals(
                    List.of(),
                    kuikThreads().stream()
                        .filter(t -> !before.contains(t))
                        .map(Thread::getName)
                        .sorted()
                        .toList()));
  }

  /** Fails unless each port can be bound again on loopback. */
  public static void assertFree(int... ports) {
    for (int port : ports) {
      try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        assertEquals(port, again.getLocalPort());
      } catch (IOException bound) {
        throw new UncheckedIOException("port " + port + " is still bound", bound);
      }
    }
  }
}
