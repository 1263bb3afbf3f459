package io.kuik.kube;

/** Reads one sample from a Prometheus text exposition. */
public final class Metrics {

  private Metrics() {}

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
