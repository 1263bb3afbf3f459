package io.kuik.sim.world.kubelet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The glob semantics of Go's {@code path/filepath.Match} on Linux (https://pkg.go.dev/path/
 * filepath#Match), which the kubelet's {@code URLsMatch} applies to each host label: a row is the
 * pattern, the name, and {@code match}, {@code no} or {@code bad} (ErrBadPattern, which the
 * kubelet's {@code Lookup} takes as no match).
 */
class FilepathMatchTest {

  @ParameterizedTest(name = "{0} on {1}: {2}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          abc                 | abc                 | match
          *                   | abc                 | match
          *c                  | abc                 | match
          a*                  | a                   | match
          a*                  | abc                 | match
          a*                  | ab/c                | no
          a*/b                | abc/b               | match
          a*/b                | a/c/b               | no
          a*b*c*d*e*/f        | axbxcxdxe/f         | match
          a*b*c*d*e*/f        | axbxcxdxexxx/fff    | no
          a*b?c*x             | abxbbxdbxebxczzx    | match
          a*b?c*x             | abxbbxdbxebxczzy    | no
          ab[c]               | abc                 | match
          ab[b-d]             | abc                 | match
          ab[e-g]             | abc                 | no
          ab[^c]              | abc                 | no
          ab[^b-d]            | abc                 | no
          ab[^e-g]            | abc                 | match
          a\\*b               | a*b                 | match
          a\\*b               | ab                  | no
          a?b                 | a☺b                 | match
          a[^a]b              | a☺b                 | match
          a???b               | a☺b                 | no
          [a-ζ]*              | α                   | match
          *[a-ζ]              | A                   | no
          a?b                 | a/b                 | no
          a*b                 | a/b                 | no
          [\\]a]              | ]                   | match
          [\\-]               | -                   | match
          [x\\-]              | -                   | match
          [x\\-]              | z                   | no
          [\\-x]              | x                   | match
          app*                | app1                | match
          *.                  | a.                  | match
          Quay                | quay                | no
          [                   | a                   | bad
          [^                  | a                   | bad
          [^bc                | a                   | bad
          a[                  | a                   | bad
          a[                  | ab                  | bad
          []a]                | ]                   | bad
          [-]                 | -                   | bad
          [x-]                | x                   | bad
          [-x]                | x                   | bad
          [a-b-c]             | a                   | bad
          []                  | a                   | bad
          [^]                 | a                   | bad
          a\\                 | a                   | bad
          *x[                 | yx                  | bad
          """)
  void matchesAsGosFilepathMatch(String pattern, String name, String expected) {
    assertEquals(expected.equals("match"), FilepathMatch.matches(pattern, name));
    assertEquals(!expected.equals("bad"), FilepathMatch.wellFormed(pattern));
  }

  @Test
  void aPatternFullOfStarsStaysQuick() {
    String pattern = "*a".repeat(60) + "*b";

    assertFalse(FilepathMatch.matches(pattern, "a".repeat(300)));
    assertTrue(FilepathMatch.matches(pattern, "a".repeat(300) + "b"));
  }
}
