package io.kuik.kube;

import static org.awaitility.Awaitility.await;

import io.kuik.LogLines;
import java.time.Duration;
import java.util.List;

/**
 * The API server goes away under running informers: each is then told by its name in the log
 * (docs/operations.md#logs), as {@link InformerHealth} tells an informer whose watch is down or
 * whose list fails, within its check's few seconds.
 */
public final class InformersDown {

  private InformersDown() {}

  /** Closes {@code cluster}, then waits until every one of {@code names} has been told. */
  public static void awaitEachToldByName(MockCluster cluster, List<String> names) {
    try (LogLines log = LogLines.of(InformerHealth.class)) {
      cluster.close();
      await("each informer told by its name: " + names)
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  names.stream()
                      .allMatch(
                          name ->
                              log.containing("lists and watches failing").stream()
                                  .anyMatch(line -> line.contains(": " + name + ": "))));
    }
  }
}
