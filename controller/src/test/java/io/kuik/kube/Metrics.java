package io.kuik.kube;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** A registry's Prometheus text exposition, as /metrics serves it, and one sample read from it. */
public final class Metrics {

  private Metrics() {}

  /** What a scrape of {@code registry} reads now, in the Prometheus text format. */
  public static String text(PrometheusRegistry registry) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      PrometheusTextFormatWriter.create().write(out, registry.scrape());
    } catch (IOException inMemory) {
      throw new UncheckedIOException(inMemory);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The value of the sample line named exactly {@code sample} (no labels); fails when absent. */
  public static double value(String exposition, String sample) {
    for (String line : exposition.split("\n")) {
      if (line.startsWith(sample + " ")) {
        return Double.parseDouble(line.substring(sample.length() + 1).trim().split(" ")[0]);
      }
    }
    throw new AssertionError("no sample " + sample + " in:\n" + exposition);
  }
}
