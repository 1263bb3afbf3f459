package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A host label glob matches as Go's {@code path/filepath.Match} does on Linux, a bad pattern
 * matching nothing, as the kubelet takes {@code ErrBadPattern} for no match. The rows follow Go's
 * own table (go/src/path/filepath/match_test.go, {@code matchTests}); most of these globs cannot
 * reach the matcher through an {@code auths} key, whose host refuses {@code ?}, {@code \} and
 * {@code ^}, but the matcher is Go's whole rule.
 */
class HostLabelGlobTest {

  @ParameterizedTest(name = "{0} against {1}: {2}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
          # glob             | text                 | matches
          abc                | abc                  | true
          *                  | abc                  | true
          *c                 | abc                  | true
          a*                 | a                    | true
          a*                 | abc                  | true
          a*                 | ab/c                 | false
          a*/b               | abc/b                | true
          a*/b               | a/c/b                | false
          a*b*c*d*e*/f       | axbxcxdxe/f          | true
          a*b*c*d*e*/f       | axbxcxdxexxx/f       | true
          a*b*c*d*e*/f       | axbxcxdxe/xxx/f      | false
          a*b*c*d*e*/f       | axbxcxdxexxx/fff     | false
          a*b?c*x            | abxbbxdbxebxczzx     | true
          a*b?c*x            | abxbbxdbxebxczzy     | false
          ab[c]              | abc                  | true
          ab[b-d]            | abc                  | true
          ab[e-g]            | abc                  | false
          ab[^c]             | abc                  | false
          ab[^b-d]           | abc                  | false
          ab[^e-g]           | abc                  | true
          a\\*b              | a*b                  | true
          a\\*b              | ab                   | false
          a?b                | a☺b                  | true
          a[^a]b             | a☺b                  | true
          a???b              | a☺b                  | false
          a[^a][^a][^a]b     | a☺b                  | false
          [a-ζ]*             | α                    | true
          *[a-ζ]             | A                    | false
          a?b                | a/b                  | false
          a*b                | a/b                  | false
          [\\]a]             | ]                    | true
          [\\-]              | -                    | true
          [x\\-]             | x                    | true
          [x\\-]             | -                    | true
          [x\\-]             | z                    | false
          [\\-x]             | x                    | true
          [\\-x]             | -                    | true
          [\\-x]             | a                    | false
          []a]               | ]                    | false
          [-]                | -                    | false
          [x-]               | x                    | false
          [x-]               | -                    | false
          [-x]               | x                    | false
          [-x]               | -                    | false
          \\                 | a                    | false
          [a-b-c]            | a                    | false
          [                  | a                    | false
          [^                 | a                    | false
          [^bc               | a                    | false
          a[                 | a                    | false
          a[                 | ab                   | false
          *x                 | xxx                  | true
          reg[0-9]           | reg0                 | true
          reg[0-9]           | reg9                 | true
          reg[0-9]           | rega                 | false
          reg[0-9]y          | reg5                 | false
          [a-c][x-z]         | by                   | true
          [a-c][x-z]         | bw                   | false
          """)
  void matchesAsGosFilepathMatch(String glob, String text, boolean matches) {
    assertEquals(matches, HostLabelGlob.matches(glob, text));
  }
}
