package io.kuik.sim.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table as kubectl prints one: upper-case headers, columns two spaces apart, each as
 * wide as its widest cell, no trailing spaces. The last column is never padded, so a long message
 * there does not widen the others.
 */
final class TextTable {

  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();

  TextTable(String... headers) {
    this.headers = List.of(headers);
  }

  TextTable row(String... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException(
          "a row of " + headers.size() + " cells, not " + Arrays.toString(cells));
    }
    rows.add(Arrays.stream(cells).map(c -> c == null ? "" : c).toList());
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  void appendTo(StringBuilder out) {
    int[] widths = new int[headers.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = headers.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    line(out, headers, widths);
    rows.forEach(row -> line(out, row, widths));
  }

  private static void line(StringBuilder out, List<String> cells, int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String cell = cells.get(i);
      line.append(cell);
      if (i < cells.size() - 1) {
        line.append(" ".repeat(widths[i] - cell.length() + 2));
      }
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }
}
