package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The core's record of a rewritten pod, read from its rewritten-by annotation and its images. */
class RewrittenPodTest {

  private static final Map<String, String> IMAGES =
      Map.of("app", "quay.io/acme/app:1", "side", "envoy:1");

  @ParameterizedTest(name = "if rewritten-by is {0}, expect the rewritten containers {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"app\":\"ImageAlternative/acme\"}|app",
        "{\"app\":\"ImageMirror/m\",\"side\":\"ImageAlternative/a\"}|app,side",
        "{\"app\":\"Deployment/web\"}|''",
        "{\"app\":\"no-slash\"}|''",
        "not json|''",
        "''|''",
      })
  void keepsOnlyTheContainersAResourceRewrote(String annotation, String expected) {
    RewrittenPod pod =
        RewrittenPod.of(
            "team-a",
            "web",
            "uid-web",
            "Running",
            false,
            Map.of(RewriteAnnotations.REWRITTEN_BY, annotation),
            IMAGES,
            -1);

    assertEquals(expected, String.join(",", new java.util.TreeSet<>(pod.containers().keySet())));
    pod.containers().forEach((name, c) -> assertEquals(IMAGES.get(name), c.image()));
  }

  @ParameterizedTest(name = "if the phase is {0} and terminating is {1}, expect live {2}")
  @CsvSource({
    ", false, true",
    "Pending, false, true",
    "Running, false, true",
    "Unknown, false, true",
    "Succeeded, false, false",
    "Failed, false, false",
    "Running, true, false",
  })
  void aPodIsLiveUntilItSucceedsFailsOrIsDeleted(String phase, boolean terminating, boolean live) {
    assertEquals(
        live, new RewrittenPod("team-a", "web", null, phase, terminating, Map.of()).live());
  }
}
