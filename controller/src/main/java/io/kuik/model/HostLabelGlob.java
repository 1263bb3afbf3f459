package io.kuik.model;

import java.util.ArrayList;
import java.util.List;

/**
 * One host label of an {@code auths} key as a glob, with the semantics of Go's {@code
 * path/filepath.Match} on Linux, which the kubelet applies label by label (https://pkg.go.dev/
 * path/filepath#Match): {@code *} any run of characters but {@code /}, {@code ?} one such
 * character, {@code [a-z0-9]} one character of a class ({@code [^...]} negated), {@code \x} the
 * character {@code x}; everything else itself, case-sensitively. A malformed pattern (unclosed,
 * empty or {@code ]}/{@code -}-led class, range without end, trailing {@code \}) matches nothing,
 * as the kubelet takes Go's {@code ErrBadPattern} for no match.
 *
 * <p>The matcher backtracks only to the last star, which is enough because every other term takes
 * exactly one character: linear in practice, never exponential, whatever a key holds.
 */
final class HostLabelGlob {

  private HostLabelGlob() {}

  static boolean matches(String glob, String label) {
    List<int[]> terms = compile(glob);
    if (terms == null) {
      return false;
    }
    int[] text = label.codePoints().toArray();
    int t = 0;
    int i = 0;
    int starTerm = -1;
    int starText = 0;
    while (i < text.length) {
      if (t < terms.size() && terms.get(t) == STAR) {
        starTerm = t++;
        starText = i;
      } else if (t < terms.size() && accepts(terms.get(t), text[i])) {
        t++;
        i++;
      } else if (starTerm >= 0 && text[starText] != '/') {
        // Let the last star take one more character and retry what follows it.
        t = starTerm + 1;
        i = ++starText;
      } else {
        return false;
      }
    }
    while (t < terms.size() && terms.get(t) == STAR) {
      t++;
    }
    return t == terms.size();
  }

  /**
   * A star; every other term is {@code {negated, lo1, hi1, lo2, hi2, ...}} (ANY: every char but /).
   */
  private static final int[] STAR = new int[0];

  private static final int[] ANY = {1, '/', '/'};

  private static boolean accepts(int[] term, int c) {
    boolean in = false;
    for (int r = 1; r < term.length; r += 2) {
      in |= term[r] <= c && c <= term[r + 1];
    }
    return in != (term[0] == 1);
  }

  /** The glob's terms, or null when Go calls it a bad pattern. */
  private static List<int[]> compile(String glob) {
    int[] g = glob.codePoints().toArray();
    List<int[]> terms = new ArrayList<>();
    int i = 0;
    while (i < g.length) {
      int c = g[i];
      if (c == '*') {
        terms.add(STAR);
        i++;
      } else if (c == '?') {
        terms.add(ANY);
        i++;
      } else if (c == '\\') {
        if (i + 1 >= g.length) {
          return null;
        }
        terms.add(new int[] {0, g[i + 1], g[i + 1]});
        i += 2;
      } else if (c == '[') {
        List<Integer> term = new ArrayList<>();
        i++;
        term.add(i < g.length && g[i] == '^' ? 1 : 0);
        if (term.get(0) == 1) {
          i++;
        }
        do {
          int[] lo = member(g, i);
          if (lo == null) {
            return null;
          }
          int hi = lo[0];
          i = lo[1];
          if (g[i] == '-') {
            int[] upper = member(g, i + 1);
            if (upper == null) {
              return null;
            }
            hi = upper[0];
            i = upper[1];
          }
          term.add(lo[0]);
          term.add(hi);
        } while (g[i] != ']');
        i++;
        terms.add(term.stream().mapToInt(Integer::intValue).toArray());
      } else {
        terms.add(new int[] {0, c, c});
        i++;
      }
    }
    return terms;
  }

  /**
   * A class member at {@code i}: the character (after an optional {@code \}) and the index after
   * it; null when Go refuses it (a bare {@code -} or {@code ]}, or the glob ends before the class
   * does).
   */
  private static int[] member(int[] g, int i) {
    if (i >= g.length || g[i] == '-' || g[i] == ']') {
      return null;
    }
    if (g[i] == '\\' && ++i >= g.length) {
      return null;
    }
    return i + 1 < g.length ? new int[] {g[i], i + 1} : null;
  }
}
