package io.kuik.selftest;

import io.kuik.selftest.SelftestCluster.Read;

/** How the checks quote what the API server said: one bounded line. */
final class Words {

  /** Enough of a condition's message or a body to act on, never pages of it. */
  private static final int QUOTE_MAX = 300;

  private Words() {}

  static String cannotRead(String what, Read<?> failed) {
    return "cannot read "
        + what
        + (failed.code() == 0 ? " (no answer)" : " (" + failed.code() + ")")
        + ": "
        + quote(failed.message());
  }

  /** One line of at most {@value #QUOTE_MAX} characters. */
  static String quote(String text) {
    String line = text == null ? "" : text.replaceAll("\\s+", " ").strip();
    return line.length() > QUOTE_MAX ? line.substring(0, QUOTE_MAX - 3) + "..." : line;
  }
}
