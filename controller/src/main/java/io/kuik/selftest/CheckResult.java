package io.kuik.selftest;

import java.util.Locale;
import java.util.Objects;

/**
 * One row of {@code kuik selftest}: which check, its result, and why, in words a person acts on.
 *
 * @param check a short name, e.g. {@code reserved-names}
 */
public record CheckResult(String check, Result result, String why) {

  /** A check's result; only {@link #FAIL} makes the selftest fail. */
  public enum Result {
    /** What the check asks for holds. */
    PASS,
    /** It does not: kuik is not installed as it should be, or not working. */
    FAIL,
    /** It holds, but something deserves a look (a registry that could not be reached, say). */
    WARN,
    /** Not checked, and why (a check the command line did not ask for). */
    SKIP;

    /** As the report prints it: {@code pass}, {@code fail}, {@code warn}, {@code skip}. */
    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public CheckResult {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(why, "why");
  }

  static CheckResult pass(String check, String why) {
    return new CheckResult(check, Result.PASS, why);
  }

  static CheckResult fail(String check, String why) {
    return new CheckResult(check, Result.FAIL, why);
  }

  static CheckResult warn(String check, String why) {
    return new CheckResult(check, Result.WARN, why);
  }

  static CheckResult skip(String check, String why) {
    return new CheckResult(check, Result.SKIP, why);
  }
}
