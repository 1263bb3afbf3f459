package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A registry path as an entry writes it: a host, then an optional repository path, never a tag or
 * digest. Each refusal names what is wrong, at the edges of the grammar (a '/', ':' or '@' first).
 */
class RegistryPathTest {

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          @sha256:abc  | has a digest ("@sha256:abc"); write the repository alone, without a tag or digest
          /            | ends with '/'; write the path without it
          /acme        | does not start with a registry host ("" has no '.' or ':' and is not localhost); write the host first, e.g. registry.example.com//acme
          /acme:1      | has a tag (":1"); write the repository alone, without a tag or digest
          quay.io/:x   | has a tag (":x"); write the repository alone, without a tag or digest
          quay.io:x    | has a tag (":x"); write the repository alone, without a tag or digest
          """)
  void refusesSayingWhatIsWrong(String written, String reason) {
    InvalidImageReferenceException refused =
        assertThrows(InvalidImageReferenceException.class, () -> RegistryPath.parse(written));

    assertEquals(reason, refused.reason());
  }

  @Test
  void acceptsAPathOf255CharactersAndRefusesOneMore() throws InvalidImageReferenceException {
    String longest = "quay.io/" + "a".repeat(247);

    assertEquals(longest, RegistryPath.parse(longest).toString());
    assertEquals(
        "is longer than 255 characters",
        assertThrows(InvalidImageReferenceException.class, () -> RegistryPath.parse(longest + "a"))
            .reason());
  }

  @Test
  void aRepositoryIsUnderAPathOnlyWithSomethingBelowTheSlash()
      throws InvalidImageReferenceException {
    RegistryPath acme = RegistryPath.parse("quay.io/acme");

    assertEquals(Optional.of("app"), acme.remainderOf("quay.io/acme/app"));
    assertEquals(Optional.empty(), acme.remainderOf("quay.io/acme/"));
    assertEquals(Optional.empty(), acme.remainderOf("quay.io/acme"));
    assertEquals(Optional.empty(), acme.remainderOf("quay.io/acme-corp/app"));
  }
}
