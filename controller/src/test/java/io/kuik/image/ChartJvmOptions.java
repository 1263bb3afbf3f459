package io.kuik.image;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The JVM options a process of the chart runs with, for the harnesses that run the real jar in
 * place of the chart's container: {@code -XX:MaxRAM} at the component's memory limit (what the
 * container JVM reads from its cgroup), then the component's {@code jvmOptions} from
 * chart/values.yaml (which the chart puts on the JVM's command line), then whatever the system
 * property {@code kuik.jvm.extra} adds (space-separated, e.g. {@code
 * -XX:NativeMemoryTracking=summary} to measure where the memory goes).
 */
public final class ChartJvmOptions {

  private ChartJvmOptions() {}

  /** For {@code component} {@code syncer} or {@code webhook}. */
  public static List<String> of(String component) {
    JsonNode values = values().path(component);
    String limit = values.path("resources").path("limits").path("memory").asString();
    List<String> options = new ArrayList<>();
    options.add("-XX:MaxRAM=" + jvmSize(limit));
    options.addAll(words(written(component)));
    options.addAll(words(System.getProperty("kuik.jvm.extra", "")));
    return List.copyOf(options);
  }

  /** The component's {@code jvmOptions} in chart/values.yaml, as written. */
  public static String written(String component) {
    return values().path(component).path("jvmOptions").asString();
  }

  /** A Kubernetes quantity in Mi or Gi as a JVM size ({@code 512Mi} is {@code 512m}). */
  static String jvmSize(String quantity) {
    if (quantity.endsWith("Mi") || quantity.endsWith("Gi")) {
      return quantity.substring(0, quantity.length() - 2) + (quantity.endsWith("Mi") ? "m" : "g");
    }
    throw new IllegalArgumentException("a memory limit in Mi or Gi, not " + quantity);
  }

  /**
   * The command the chart gives a container, and the images' entrypoint: the JVM, {@code options},
   * the image's classpath and kuik's main class.
   */
  static List<String> command(List<String> options) {
    List<String> command = new ArrayList<>();
    command.add("java");
    command.addAll(options);
    command.addAll(List.of("-cp", "@/app/jib-classpath-file", "io.kuik.cli.Main"));
    return List.copyOf(command);
  }

  static List<String> words(String text) {
    return text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
  }

  private static JsonNode values() {
    Path file =
        Path.of(System.getProperty("basedir", ".")).resolve("../chart/values.yaml").normalize();
    return YAMLMapper.builder().build().readTree(file.toFile());
  }
}
