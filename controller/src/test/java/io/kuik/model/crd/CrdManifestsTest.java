package io.kuik.model.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * chart/files/crds and the typed routing resources cannot drift apart: the committed CRDs must be
 * byte for byte what the model generates. {@code -Dkuik.crds.write=true} rewrites them instead.
 */
class CrdManifestsTest {

  private static final boolean WRITE = Boolean.getBoolean("kuik.crds.write");

  @Test
  void committedCrdsAreWhatTheModelGenerates() throws IOException {
    Path dir = CrdManifests.chartCrds();
    List<String> drifted = new ArrayList<>();
    Map<String, String> manifests = CrdManifests.generate();
    if (WRITE) {
      removeStaleFiles(manifests.keySet());
    }
    for (Map.Entry<String, String> manifest : manifests.entrySet()) {
      Path file = dir.resolve(manifest.getKey());
      if (WRITE) {
        Files.createDirectories(dir);
        Files.writeString(file, manifest.getValue(), StandardCharsets.UTF_8);
        continue;
      }
      String committed = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
      if (!committed.equals(manifest.getValue())) {
        drifted.add(
            "--- "
                + file
                + " (committed)\n+++ generated from io.kuik.model.crd\n"
                + LineDiff.unified(committed, manifest.getValue()));
      }
    }
    if (!drifted.isEmpty()) {
      fail(
          "chart/files/crds differs from the routing resource classes; if the classes are right,"
              + " regenerate the CRDs with\n  "
              + CrdManifests.REGENERATE_COMMAND
              + "\nand commit them.\n"
              + String.join("\n", drifted));
    }
  }

  @Test
  void chartHoldsNoCrdTheModelDoesNotGenerate() throws IOException {
    assumeFalse(WRITE, "the write run removes stale files itself");
    assertEquals(
        CrdManifests.generate().keySet(),
        committedFiles(),
        "stale CRD files of kuik.enix.io in chart/files/crds; regenerate with\n  "
            + CrdManifests.REGENERATE_COMMAND);
  }

  private static void removeStaleFiles(Set<String> generated) throws IOException {
    for (String name : committedFiles()) {
      if (!generated.contains(name)) {
        Files.delete(CrdManifests.chartCrds().resolve(name));
      }
    }
  }

  private static Set<String> committedFiles() throws IOException {
    Path dir = CrdManifests.chartCrds();
    if (!Files.isDirectory(dir)) {
      return Set.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(path -> path.getFileName().toString())
          .filter(name -> name.endsWith(".kuik.enix.io.yaml"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }
}
