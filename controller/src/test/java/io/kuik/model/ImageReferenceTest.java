package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ImageReferenceTest {

  private static final String DIGEST =
      "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

  @ParameterizedTest(name = "if {0} is written, expect {1}")
  @CsvSource({
    "nginx, docker.io/library/nginx:latest",
    "nginx:1.27, docker.io/library/nginx:1.27",
    "acme/app, docker.io/acme/app:latest",
    "acme/team/app:v2, docker.io/acme/team/app:v2",
    "docker.io/nginx, docker.io/library/nginx:latest",
    "docker.io/library/nginx:1.27, docker.io/library/nginx:1.27",
    "index.docker.io/library/nginx:1, docker.io/library/nginx:1",
    "index.docker.io/acme/app, docker.io/acme/app:latest",
    "quay.io/acme/foo, quay.io/acme/foo:latest",
    "quay.io/acme/foo-bar:1.0.0-rc_1, quay.io/acme/foo-bar:1.0.0-rc_1",
    "localhost/foo, localhost/foo:latest",
    "localhost:5000/foo/bar:v1, localhost:5000/foo/bar:v1",
    "127.0.0.1:5000/x, 127.0.0.1:5000/x:latest",
    "[::1]:5000/foo, [::1]:5000/foo:latest",
    "registry.example.com/mirror/docker.io/library/nginx:1.27,"
        + " registry.example.com/mirror/docker.io/library/nginx:1.27",
    "a.b/c_d__e-f.g--h, a.b/c_d__e-f.g--h:latest",
    "MyRegistry.io/app, MyRegistry.io/app:latest",
    // Docker reads a lone host:port as a name and a tag.
    "localhost:5000, docker.io/library/localhost:5000",
    "nginx:Latest_1, docker.io/library/nginx:Latest_1",
  })
  void normalizesAsDockerDoes(String written, String canonical)
      throws InvalidImageReferenceException {
    ImageReference reference = ImageReference.parse(written);

    assertEquals(canonical, reference.toString());
    assertEquals(reference, ImageReference.parse(reference.toString()), "round trip");
  }

  @Test
  void splitsIntoRegistryPathTagAndDigest() throws InvalidImageReferenceException {
    ImageReference reference = ImageReference.parse("localhost:5000/acme/foo:1.2@" + DIGEST);

    assertEquals("localhost:5000", reference.registry());
    assertEquals("acme/foo", reference.path());
    assertEquals("1.2", reference.tag());
    assertEquals(DIGEST, reference.digest());
    assertEquals("localhost:5000/acme/foo", reference.repository());
  }

  @Test
  void keepsADigestWithoutInventingATag() throws InvalidImageReferenceException {
    ImageReference reference = ImageReference.parse("nginx@" + DIGEST);

    assertNull(reference.tag());
    assertEquals("docker.io/library/nginx@" + DIGEST, reference.toString());
    assertEquals(reference, ImageReference.parse(reference.toString()));
  }

  @Test
  void keepsBothTagAndDigest() throws InvalidImageReferenceException {
    ImageReference reference = ImageReference.parse("nginx:1.27@" + DIGEST);

    assertEquals("docker.io/library/nginx:1.27@" + DIGEST, reference.toString());
    assertEquals(reference, ImageReference.parse(reference.toString()));
  }

  @ParameterizedTest(name = "if {0} is written, expect \"{1}\"")
  @CsvSource(
      delimiter = '|',
      value = {
        "''| invalid image reference \"\": is empty",
        "'nginx '| invalid image reference \"nginx \": has a space at position 6",
        "'quay.io/acme\tfoo'| invalid image reference \"quay.io/acme\tfoo\": has a whitespace or"
            + " control character at position 13",
        "Nginx| invalid image reference \"Nginx\": path segment \"Nginx\" must be lower-case",
        "quay.io/Acme/foo| invalid image reference \"quay.io/Acme/foo\": path segment \"Acme\""
            + " must be lower-case",
        "nginx:| invalid image reference \"nginx:\": ends with ':' but no tag follows",
        "nginx@| invalid image reference \"nginx@\": ends with '@' but no digest follows",
        "nginx:@"
            + DIGEST
            + "| invalid image reference \"nginx:@"
            + DIGEST
            + "\": has ':' but no tag",
        "nginx@sha256:abc| invalid image reference \"nginx@sha256:abc\": digest \"sha256:abc\""
            + " must be \"sha256:\" followed by 64 lower-case hex digits",
        "nginx@sha512:abc@sha256:abc| invalid image reference \"nginx@sha512:abc@sha256:abc\":"
            + " has more than one '@'",
        "nginx:.hidden| invalid image reference \"nginx:.hidden\": tag \".hidden\" must be 1 to"
            + " 128 letters, digits, '_', '.' or '-', and not start with '.' or '-'",
        "quay.io/acme/foo:1/bar| invalid image reference \"quay.io/acme/foo:1/bar\": path"
            + " segment \"foo:1\" must be"
            + " lower-case letters and digits, separated by '.', '_', '__' or '-'",
        "quay.io//foo| invalid image reference \"quay.io//foo\": has an empty path segment (a '/'"
            + " at the start or end, or '//')",
        "quay.io/foo/| invalid image reference \"quay.io/foo/\": has an empty path segment (a"
            + " '/' at the start or end, or '//')",
        "quay.io/| invalid image reference \"quay.io/\": has no repository path after the"
            + " registry",
        ":1.0| invalid image reference \":1.0\": has no repository name",
        "@" + DIGEST + "| invalid image reference \"@" + DIGEST + "\": has no repository name",
        "nginx@@"
            + DIGEST
            + "| invalid image reference \"nginx@@"
            + DIGEST
            + "\": has more than one '@'",
        "foo..bar| invalid image reference \"foo..bar\": path segment \"foo..bar\" must be"
            + " lower-case letters and digits, separated by '.', '_', '__' or '-'",
        "bad_host.io/foo| invalid image reference \"bad_host.io/foo\": registry host"
            + " \"bad_host.io\" must be DNS labels of letters, digits and '-' separated by '.'",
        "quay.io:https/foo| invalid image reference \"quay.io:https/foo\": registry"
            + " \"quay.io:https\" has port \"https\", which must be digits",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef| invalid image"
            + " reference \"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\":"
            + " is 64 hex digits, which reads as an image ID; name the repository instead",
      })
  void refusesWhatDockerRefusesSayingWhatIsWrong(String written, String message) {
    InvalidImageReferenceException refused =
        assertThrows(InvalidImageReferenceException.class, () -> ImageReference.parse(written));

    assertEquals(message, refused.getMessage());
    assertEquals(written, refused.input());
  }

  @Test
  void refusesANullReference() {
    assertThrows(InvalidImageReferenceException.class, () -> ImageReference.parse(null));
  }

  @Test
  void refusesATagLongerThan128Characters() {
    String tag = "t".repeat(129);

    InvalidImageReferenceException refused =
        assertThrows(
            InvalidImageReferenceException.class, () -> ImageReference.parse("nginx:" + tag));

    assertEquals(
        "tag \""
            + tag
            + "\" must be 1 to 128 letters, digits, '_', '.' or '-', and not"
            + " start with '.' or '-'",
        refused.reason());
  }

  @Test
  void acceptsATagOf128Characters() throws InvalidImageReferenceException {
    assertEquals("t".repeat(128), ImageReference.parse("nginx:" + "t".repeat(128)).tag());
  }

  @Test
  void acceptsANameOf255Characters() throws InvalidImageReferenceException {
    String name = "quay.io/" + "a".repeat(247);

    assertEquals(name, ImageReference.parse(name).repository());
  }

  @Test
  void refusesANameLongerThan255Characters() {
    String name = "quay.io/" + "a".repeat(248);

    InvalidImageReferenceException refused =
        assertThrows(InvalidImageReferenceException.class, () -> ImageReference.parse(name));

    assertEquals("has a name longer than 255 characters", refused.reason());
  }

  @Test
  void rewritesToAnotherRepositoryKeepingTagAndDigest() throws InvalidImageReferenceException {
    ImageReference original = ImageReference.parse("nginx:1.27@" + DIGEST);

    ImageReference mirrored =
        original.withRepository("registry.example.com/mirror/" + original.repository());

    assertEquals(
        "registry.example.com/mirror/docker.io/library/nginx:1.27@" + DIGEST, mirrored.toString());
  }

  @Test
  void normalizesTheRepositoryItRewritesTo() throws InvalidImageReferenceException {
    ImageReference original = ImageReference.parse("quay.io/acme/foo:2");

    assertEquals("docker.io/library/foo:2", original.withRepository("foo").toString());
    assertEquals(
        "docker.io/acme/foo:2", original.withRepository("index.docker.io/acme/foo").toString());
  }

  @ParameterizedTest(name = "if the new repository is {0}, expect a refusal")
  @ValueSource(strings = {"quay.io/acme/foo:1", "quay.io/acme/foo@" + DIGEST, "Quay/Foo", ""})
  void refusesToRewriteToSomethingThatIsNotARepository(String repository)
      throws InvalidImageReferenceException {
    ImageReference original = ImageReference.parse("nginx");

    assertThrows(IllegalArgumentException.class, () -> original.withRepository(repository));
  }

  @Test
  void refusesComponentsThatBreakTheGrammar() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new ImageReference("docker.io", "library/nginx", null, null));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ImageReference("docker.io", "Library/nginx", "1", null));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ImageReference("docker.io", "library/nginx", null, "sha256:abc"));
  }
}
