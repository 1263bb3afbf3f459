package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterResourceNamespaceTest {

  @TempDir Path dir;

  @Test
  void theFlagWinsOverTheServiceAccount() throws IOException {
    Path file = Files.writeString(dir.resolve("namespace"), "from-pod");

    assertEquals(Optional.of("kuik-system"), ClusterResourceNamespace.resolve("kuik-system", file));
  }

  @Test
  void withoutTheFlagThePodsNamespaceIsUsed() throws IOException {
    Path file = Files.writeString(dir.resolve("namespace"), "kuik-system\n");

    assertEquals(Optional.of("kuik-system"), ClusterResourceNamespace.resolve(null, file));
  }

  @Test
  void outsideAPodWithoutTheFlagThereIsNone() {
    assertEquals(Optional.empty(), ClusterResourceNamespace.resolve("  ", dir.resolve("missing")));
  }
}
