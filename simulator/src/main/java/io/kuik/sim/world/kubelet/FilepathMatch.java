package io.kuik.sim.world.kubelet;

import java.util.ArrayList;
import java.util.List;

/**
 * Go's {@code path/filepath.Match} on Linux, which the kubelet applies to one host label of a key
 * against the same label of an image (kubernetes/kubernetes {@code pkg/credentialprovider/
 * keyring.go}, {@code URLsMatch}). Written from the grammar the Go documentation gives
 * (https://pkg.go.dev/path/filepath#Match):
 *
 * <ul>
 *   <li>{@code *} any run of characters other than {@code /}; {@code ?} one such character;
 *   <li>{@code [...]} one character of a non-empty class of characters and {@code lo-hi} ranges,
 *       negated by a leading {@code ^}; {@code \} escapes the next character, inside a class too;
 *   <li>anything else matches itself, case-sensitively;
 *   <li>a malformed pattern (an unclosed or empty class, a class starting with {@code ]} or {@code
 *       -}, a range without its end, a trailing {@code \}) matches nothing: {@code Match} answers
 *       {@code ErrBadPattern}, and the kubelet's {@code Lookup} takes an error as no match.
 * </ul>
 *
 * Matching is a table over (pattern position, name position), so no pattern can make it slower than
 * the product of the two lengths.
 */
final class FilepathMatch {

  private FilepathMatch() {}

  /** Whether {@code pattern} matches all of {@code name}; false for a malformed pattern. */
  static boolean matches(String pattern, String name) {
    List<Term> terms = terms(pattern);
    if (terms == null) {
      return false;
    }
    int[] text = name.codePoints().toArray();
    // fits[t][i]: terms t.. match text i..
    boolean[][] fits = new boolean[terms.size() + 1][text.length + 1];
    fits[terms.size()][text.length] = true;
    for (int t = terms.size() - 1; t >= 0; t--) {
      Term term = terms.get(t);
      for (int i = text.length; i >= 0; i--) {
        if (term.star) {
          fits[t][i] = fits[t + 1][i] || (i < text.length && text[i] != '/' && fits[t][i + 1]);
        } else {
          fits[t][i] = i < text.length && term.accepts(text[i]) && fits[t + 1][i + 1];
        }
      }
    }
    return fits[0][0];
  }

  /** Whether Go would call {@code pattern} well-formed. */
  static boolean wellFormed(String pattern) {
    return terms(pattern) != null;
  }

  /** One position of a pattern: a star, or a test of one character. */
  private record Term(boolean star, boolean anyButSlash, boolean negated, int[] ranges) {
    static final Term STAR = new Term(true, false, false, new int[0]);
    static final Term ANY = new Term(false, true, false, new int[0]);

    static Term literal(int c) {
      return new Term(false, false, false, new int[] {c, c});
    }

    boolean accepts(int c) {
      if (anyButSlash) {
        return c != '/';
      }
      boolean inside = false;
      for (int r = 0; r < ranges.length; r += 2) {
        inside |= ranges[r] <= c && c <= ranges[r + 1];
      }
      return inside != negated;
    }
  }

  /** The pattern's terms, or null when Go would answer ErrBadPattern. */
  private static List<Term> terms(String pattern) {
    int[] p = pattern.codePoints().toArray();
    List<Term> terms = new ArrayList<>();
    int i = 0;
    while (i < p.length) {
      int c = p[i++];
      if (c == '*') {
        terms.add(Term.STAR);
      } else if (c == '?') {
        terms.add(Term.ANY);
      } else if (c == '\\') {
        if (i == p.length) {
          return null;
        }
        terms.add(Term.literal(p[i++]));
      } else if (c == '[') {
        boolean negated = i < p.length && p[i] == '^';
        if (negated) {
          i++;
        }
        List<Integer> ranges = new ArrayList<>();
        while (true) {
          if (i < p.length && p[i] == ']' && !ranges.isEmpty()) {
            i++;
            break;
          }
          int[] lo = classChar(p, i);
          if (lo == null) {
            return null;
          }
          i = lo[1];
          int hi = lo[0];
          if (p[i] == '-') {
            int[] end = classChar(p, i + 1);
            if (end == null) {
              return null;
            }
            hi = end[0];
            i = end[1];
          }
          ranges.add(lo[0]);
          ranges.add(hi);
        }
        terms.add(
            new Term(false, false, negated, ranges.stream().mapToInt(Integer::intValue).toArray()));
      } else {
        terms.add(Term.literal(c));
      }
    }
    return terms;
  }

  /**
   * One character of a class at {@code i} (escaped or not) and the position after it, or null: a
   * class member may not be a bare {@code -} or {@code ]}, and the class must go on after it.
   */
  private static int[] classChar(int[] p, int i) {
    if (i >= p.length || p[i] == '-' || p[i] == ']') {
      return null;
    }
    if (p[i] == '\\') {
      i++;
      if (i >= p.length) {
        return null;
      }
    }
    int c = p[i++];
    return i < p.length ? new int[] {c, i} : null;
  }
}
