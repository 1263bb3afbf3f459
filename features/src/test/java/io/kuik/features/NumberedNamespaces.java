package io.kuik.features;

import java.util.List;
import java.util.stream.IntStream;

/** The namespaces a step names as {@code p-1 to p-N}. */
final class NumberedNamespaces {

  private NumberedNamespaces() {}

  /**
   * {@code prefix-1} to {@code prefix-last}; the step's two prefixes must be the same word
   * (Cucumber hands each {@code {word}} over on its own).
   */
  static List<String> of(String prefix, String samePrefix, int last) {
    if (!prefix.equals(samePrefix)) {
      throw new IllegalArgumentException("say p-1 to p-N, got " + prefix + " and " + samePrefix);
    }
    return IntStream.rangeClosed(1, last).mapToObj(i -> prefix + "-" + i).toList();
  }
}
