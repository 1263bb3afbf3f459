package io.kuik.selftest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every check's row, in the order they ran; the selftest passes when none failed. Printed as a
 * table (check, result, why) or as JSON.
 */
public record SelftestReport(List<CheckResult> checks) {

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  public SelftestReport {
    checks = List.copyOf(checks);
  }

  /** No check failed; warnings and skipped checks do not fail the selftest. */
  public boolean passed() {
    return checks.stream().noneMatch(c -> c.result() == CheckResult.Result.FAIL);
  }

  /** The row of a check, for tests and callers that look at one. */
  public CheckResult row(String check) {
    return checks.stream()
        .filter(c -> c.check().equals(check))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no check named " + check));
  }

  /** One line per check, columns aligned, then the verdict. */
  public String text() {
    int checkWidth = "CHECK".length();
    for (CheckResult c : checks) {
      checkWidth = Math.max(checkWidth, c.check().length());
    }
    StringBuilder out = new StringBuilder();
    row(out, checkWidth, "CHECK", "RESULT", "WHY");
    for (CheckResult c : checks) {
      row(out, checkWidth, c.check(), c.result().word(), c.why());
    }
    long failed = checks.stream().filter(c -> c.result() == CheckResult.Result.FAIL).count();
    out.append('\n')
        .append(
            failed == 0
                ? "selftest passed"
                : "selftest FAILED: " + failed + (failed == 1 ? " check" : " checks") + " failed")
        .append('\n');
    return out.toString();
  }

  /** {@code {"passed": ..., "checks": [{"check", "result", "why"}, ...]}}. */
  public String json() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("passed", passed());
    body.put(
        "checks",
        checks.stream()
            .map(
                c -> {
                  Map<String, String> row = new LinkedHashMap<>();
                  row.put("check", c.check());
                  row.put("result", c.result().word());
                  row.put("why", c.why());
                  return row;
                })
            .toList());
    return JSON.writeValueAsString(body) + "\n";
  }

  private static void row(
      StringBuilder out, int checkWidth, String check, String result, String why) {
    out.append(check)
        .append(" ".repeat(checkWidth - check.length() + 2))
        .append(result)
        .append(" ".repeat(Math.max(2, 8 - result.length())))
        .append(why)
        .append('\n');
  }
}
