package io.kuik.model.crd;

import java.util.ArrayList;
import java.util.List;

/** A small unified diff of two texts by lines, enough to show drift in a test failure. */
final class LineDiff {

  private static final int CONTEXT = 2;

  private LineDiff() {}

  static String unified(String before, String after) {
    String[] a = before.split("\n", -1);
    String[] b = after.split("\n", -1);
    // Longest common subsequence table, from the ends, so that the walk below goes forwards.
    int[][] common = new int[a.length + 1][b.length + 1];
    for (int i = a.length - 1; i >= 0; i--) {
      for (int j = b.length - 1; j >= 0; j--) {
        common[i][j] =
            a[i].equals(b[j])
                ? common[i + 1][j + 1] + 1
                : Math.max(common[i + 1][j], common[i][j + 1]);
      }
    }
    List<String> lines = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i].equals(b[j])) {
        lines.add("  " + a[i]);
        i++;
        j++;
      } else if (j < b.length && (i == a.length || common[i][j + 1] >= common[i + 1][j])) {
        lines.add("+ " + b[j++]);
      } else {
        lines.add("- " + a[i++]);
      }
    }
    return withContext(lines);
  }

  /** Keeps the changed lines and {@value #CONTEXT} lines around each, marking cuts with "...". */
  private static String withContext(List<String> lines) {
    StringBuilder out = new StringBuilder();
    int lastShown = -1;
    for (int k = 0; k < lines.size(); k++) {
      boolean near = false;
      for (int d = -CONTEXT; d <= CONTEXT && !near; d++) {
        int n = k + d;
        near = n >= 0 && n < lines.size() && !lines.get(n).startsWith("  ");
      }
      if (near) {
        if (lastShown >= 0 && lastShown < k - 1) {
          out.append("...\n");
        }
        out.append(lines.get(k)).append('\n');
        lastShown = k;
      }
    }
    return out.toString();
  }
}
