package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Dns1123Test {

  @ParameterizedTest(name = "\"{0}\" -> {1}")
  @CsvSource({
    "a, true",
    "kuik-inject-imagemirror-prod, true",
    "a.b-c.d, true",
    "0abc, true",
    "'', false",
    "A, false",
    "-a, false",
    "a-, false",
    "a., false",
    ".a, false",
    "a..b, false",
    "a.-b, false",
    "a-.b, false",
    "a_b, false",
  })
  void recognisesDns1123Subdomains(String value, boolean expected) {
    assertEquals(expected, Dns1123.isSubdomain(value));
  }

  @Test
  void bounds253CharactersForASubdomain() {
    assertTrue(Dns1123.isSubdomain(label(253)));
    assertFalse(Dns1123.isSubdomain(label(254)));
    assertTrue(Dns1123.hasSubdomainShape(label(254)), "the shape alone ignores the length");
    assertFalse(Dns1123.isSubdomain(null));
    assertFalse(Dns1123.hasSubdomainShape(null));
  }

  @ParameterizedTest(name = "\"{0}\" -> {1}")
  @CsvSource({
    "kuik-system, true",
    "a, true",
    "0-9, true",
    "'', false",
    "kuik.system, false",
    "Kuik, false",
    "-a, false",
    "a-, false",
  })
  void recognisesDns1123Labels(String value, boolean expected) {
    assertEquals(expected, Dns1123.isLabel(value));
  }

  @Test
  void bounds63CharactersForALabel() {
    assertTrue(Dns1123.isLabel(label(63)));
    assertFalse(Dns1123.isLabel(label(64)));
    assertFalse(Dns1123.isLabel(null));
  }

  /** A single label of lower-case letters and digits, {@code length} long. */
  private static String label(int length) {
    StringBuilder label = new StringBuilder();
    for (int i = 0; i < length; i++) {
      label.append((char) ('a' + i % 26));
    }
    return label.toString();
  }
}
