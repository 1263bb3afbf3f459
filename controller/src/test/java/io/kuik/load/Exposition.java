package io.kuik.load;

import java.util.OptionalDouble;

/** Reads samples out of a Prometheus text exposition, as the webhook's {@code /metrics} serves. */
final class Exposition {

  private Exposition() {}

  /**
   * The value of the sample whose name and labels are exactly {@code sample} (e.g. {@code
   * kuik_webhook_probes_total{outcome="available"}}), or empty when the exposition has none.
   */
  static OptionalDouble sample(String exposition, String sample) {
    for (String line : exposition.split("\n")) {
      if (line.startsWith(sample + " ")) {
        String[] value = line.substring(sample.length() + 1).trim().split(" ");
        return OptionalDouble.of(Double.parseDouble(value[0]));
      }
    }
    return OptionalDouble.empty();
  }

  /**
   * The sum of every sample of the metric {@code name} whatever its labels ({@code name} or {@code
   * name{...}}), or empty when there is none.
   */
  static OptionalDouble sum(String exposition, String name) {
    double total = 0;
    boolean found = false;
    for (String line : exposition.split("\n")) {
      if (line.startsWith("#")) {
        continue;
      }
      boolean bare = line.startsWith(name + " ");
      boolean labelled = line.startsWith(name + "{");
      if (!bare && !labelled) {
        continue;
      }
      String rest =
          labelled ? line.substring(line.indexOf('}') + 1) : line.substring(name.length());
      total += Double.parseDouble(rest.trim().split(" ")[0]);
      found = true;
    }
    return found ? OptionalDouble.of(total) : OptionalDouble.empty();
  }
}
