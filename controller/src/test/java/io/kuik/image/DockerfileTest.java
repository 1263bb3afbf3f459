package io.kuik.image;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * controller/Dockerfile stays buildable for people with Docker, though no engine runs here: every
 * path its build stage copies from the repository exists, and it copies the pom of every module of
 * the reactor (Maven reads them all, even to build the controller alone).
 */
class DockerfileTest {

  private static final Path REPOSITORY = Path.of("..");
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

  @Test
  void everyPathTheDockerfileCopiesExists() throws Exception {
    List<String> missing = new ArrayList<>();
    for (List<String> copy : copies()) {
      for (String source : copy.subList(0, copy.size() - 1)) {
        if (!Files.exists(REPOSITORY.resolve(source))) {
          missing.add(source);
        }
      }
    }

    assertFalse(copies().isEmpty(), "the Dockerfile copies the sources");
    assertEquals(List.of(), missing, "paths controller/Dockerfile copies that do not exist");
  }

  @Test
  void theDockerfileCopiesThePomOfEveryModule() throws Exception {
    List<String> copied = new ArrayList<>();
    copies().forEach(copy -> copied.addAll(copy.subList(0, copy.size() - 1)));
    Matcher module = MODULE.matcher(Files.readString(REPOSITORY.resolve("pom.xml")));
    List<String> missing = new ArrayList<>();
    while (module.find()) {
      String pom = module.group(1) + "/pom.xml";
      if (!copied.contains(pom)) {
        missing.add(pom);
      }
    }

    assertEquals(List.of(), missing, "module poms controller/Dockerfile does not copy");
  }

  @Test
  void theDockerfileGivesTheJvmTheChartsOptionsOnItsCommandLine() throws Exception {
    List<String> lines = Files.readAllLines(REPOSITORY.resolve("controller/Dockerfile"));
    List<String> entrypoint =
        lines.stream()
            .filter(line -> line.startsWith("ENTRYPOINT ["))
            .map(line -> line.substring("ENTRYPOINT [".length(), line.length() - 1))
            .map(list -> List.of(list.replace("\"", "").split(",\\s*")))
            .findFirst()
            .orElse(List.of());
    List<String> options = ChartJvmOptions.words(ChartJvmOptions.written("syncer"));

    assertAll(
        () -> assertEquals(ChartJvmOptions.command(options), entrypoint, "the chart's command"),
        () ->
            assertEquals(
                ChartJvmOptions.written("syncer"),
                ChartJvmOptions.written("webhook"),
                "one image for both components"),
        () ->
            assertTrue(
                lines.stream().noneMatch(line -> line.contains("JAVA_TOOL_OPTIONS=")),
                "the JVM would print a Picked up line before the first log line"));
  }

  /** The sources and destination of each COPY from the build context (not --from a stage). */
  private static List<List<String>> copies() throws Exception {
    List<List<String>> copies = new ArrayList<>();
    for (String line : Files.readAllLines(REPOSITORY.resolve("controller/Dockerfile"))) {
      List<String> words = List.of(line.trim().split("\\s+"));
      if (!words.get(0).equals("COPY")) {
        continue;
      }
      List<String> arguments =
          words.subList(1, words.size()).stream().filter(word -> !word.startsWith("--")).toList();
      boolean fromStage = words.stream().anyMatch(word -> word.startsWith("--from="));
      if (!fromStage) {
        copies.add(arguments);
      }
    }
    return copies;
  }
}
