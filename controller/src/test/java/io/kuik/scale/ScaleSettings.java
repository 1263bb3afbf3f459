package io.kuik.scale;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one run of the scale harness does, from system properties (the {@code scale} profile passes
 * them from Maven's):
 *
 * <ul>
 *   <li>{@code kuik.scale.jars}: the runnable jars to compare, {@code label=path,...} (default:
 *       this build's jar as {@code this});
 *   <li>{@code kuik.scale.pods}: the cluster sizes P, pods, in order (default {@code 2000,10000});
 *       N = P / 10 namespaces;
 *   <li>{@code kuik.scale.probes}: new rewritten pods created per phase, one a second (default 15);
 *   <li>{@code kuik.scale.passCap}: seconds a pass may take before the harness stops waiting for it
 *       (default 600);
 *   <li>{@code kuik.scale.resyncPeriod}: the syncer's {@code --resync-period} (default the chart's
 *       {@code 10m});
 *   <li>{@code kuik.scale.mockStore}: {@code indexed} (default, {@link IndexedApiStore}) or {@code
 *       scan} (fabric8's store, which scans every object for each request), to measure the mock.
 * </ul>
 */
record ScaleSettings(
    List<Jar> jars,
    List<Integer> pods,
    int probes,
    Duration passCap,
    String resyncPeriod,
    String mockStore,
    Path out) {

  /** A runnable jar under test and the label its rows carry. */
  record Jar(String label, Path path) {
    Jar {
      if (label.isBlank() || !Files.isRegularFile(path)) {
        throw new IllegalArgumentException(
            "kuik.scale.jars: " + label + "=" + path + " is not a file");
      }
    }
  }

  ScaleSettings {
    jars = List.copyOf(jars);
    pods = List.copyOf(pods);
    if (jars.isEmpty()) {
      throw new IllegalArgumentException("kuik.scale.jars: give label=path,...");
    }
    if (pods.isEmpty() || pods.stream().anyMatch(p -> p < 200)) {
      throw new IllegalArgumentException("kuik.scale.pods: sizes of at least 200 pods");
    }
    if (probes < 1) {
      throw new IllegalArgumentException("kuik.scale.probes must be positive");
    }
    if (!mockStore.equals("indexed") && !mockStore.equals("scan")) {
      throw new IllegalArgumentException("kuik.scale.mockStore: indexed or scan, not " + mockStore);
    }
  }

  static ScaleSettings fromSystemProperties(Path defaultJar, Path out) {
    List<Jar> jars = parseJars(System.getProperty("kuik.scale.jars", ""), defaultJar);
    List<Integer> pods = new ArrayList<>();
    for (String p : System.getProperty("kuik.scale.pods", "2000,10000").split(",")) {
      if (!p.isBlank()) {
        pods.add(Integer.parseInt(p.trim().replace("_", "")));
      }
    }
    return new ScaleSettings(
        jars,
        pods,
        Integer.parseInt(System.getProperty("kuik.scale.probes", "15").trim()),
        Duration.ofSeconds(Long.parseLong(System.getProperty("kuik.scale.passCap", "600").trim())),
        System.getProperty("kuik.scale.resyncPeriod", "10m").trim(),
        System.getProperty("kuik.scale.mockStore", "indexed").trim(),
        out);
  }

  static List<Jar> parseJars(String spec, Path defaultJar) {
    List<Jar> jars = new ArrayList<>();
    for (String item : spec.split(",")) {
      if (item.isBlank()) {
        continue;
      }
      int equals = item.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException("kuik.scale.jars: " + item + " is not label=path");
      }
      jars.add(
          new Jar(item.substring(0, equals).trim(), Path.of(item.substring(equals + 1).trim())));
    }
    if (jars.isEmpty() && defaultJar != null) {
      jars.add(new Jar("this", defaultJar));
    }
    return jars;
  }
}
