package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SecretNamesTest {

  /** The rule as Kubernetes states it, kept apart from the class under test on purpose. */
  private static final Pattern SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private static final String MIRROR_PREFIX = "kuik-inject-imagemirror-";

  @ParameterizedTest(name = "{0}/{1} -> {2}")
  @CsvSource({
    "ImageMirror, prod-mirror, kuik-inject-imagemirror-prod-mirror",
    "ImageAlternative, acme-foo, kuik-inject-imagealternative-acme-foo",
    "ImageMirror, team.a.mirror, kuik-inject-imagemirror-team.a.mirror",
    "imagemirror, x, kuik-inject-imagemirror-x",
  })
  void namesAnInjectedSecretAfterTheLowerCasedKindAndTheName(
      String kind, String name, String expected) {
    assertEquals(expected, SecretNames.injected(kind, name));
  }

  @Test
  void namesAProviderSecretAfterItsSuffix() {
    assertEquals("kuik-provider-ecr-eu-west-1", SecretNames.provider("ecr-eu-west-1"));
    assertTrue(SecretNames.provider("x").startsWith(SecretNames.PROVIDER_PREFIX));
    assertTrue(SecretNames.injected("ImageMirror", "x").startsWith(SecretNames.INJECT_PREFIX));
  }

  @Test
  void keepsANameOfExactly253Characters() {
    String name = label(253 - MIRROR_PREFIX.length());

    String secret = SecretNames.injected("ImageMirror", name);

    assertEquals(253, secret.length());
    assertEquals(MIRROR_PREFIX + name, secret);
  }

  @Test
  void shortensANameOf254CharactersWithAHashOfTheFullName() throws Exception {
    String name = label(254 - MIRROR_PREFIX.length());
    String full = MIRROR_PREFIX + name;

    String secret = SecretNames.injected("ImageMirror", name);

    String hash = sha256Hex(full).substring(0, 10);
    assertTrue(secret.length() <= 253, secret);
    assertTrue(secret.endsWith("-" + hash), secret);
    assertTrue(full.startsWith(secret.substring(0, secret.length() - hash.length() - 1)));
    assertTrue(Dns1123.isSubdomain(secret), secret);
  }

  @Test
  void shortensTheSameNameTheSameWayEveryTime() {
    String name = label(253);

    assertEquals(
        SecretNames.injected("ImageMirror", name), SecretNames.injected("ImageMirror", name));
    assertEquals(SecretNames.provider(name), SecretNames.provider(name));
  }

  @Test
  void keepsLongNamesThatShareA240CharacterPrefixApart() {
    String common = label(240);

    String first = SecretNames.injected("ImageMirror", common + "-first");
    String second = SecretNames.injected("ImageMirror", common + "-second");

    assertNotEquals(first, second);
    assertTrue(first.length() <= 253 && second.length() <= 253);
  }

  @Test
  void tellsKindsApartEvenWhenTheNameIsCut() {
    String name = label(253);

    assertNotEquals(
        SecretNames.injected("ImageMirror", name), SecretNames.injected("ImageAlternative", name));
  }

  /** Puts a '.' or a '-' at and around the place where the cut falls. */
  @ParameterizedTest(name = "separator {0} at offset {1} from the cut")
  @CsvSource({
    ".,-2", ".,-1", ".,0", ".,1", ".,2", "-,-2", "-,-1", "-,0", "-,1", "-,2", "--,-2", "--,-1",
  })
  void neverEndsTheCutOnASeparator(String separators, int offsetFromCut) {
    // The cut keeps 242 characters of the full name; place the separators there.
    int cut = 253 - 1 - 10;
    int at = cut + offsetFromCut - MIRROR_PREFIX.length();
    String name = label(at) + separators + label(250 - at);

    String secret = SecretNames.injected("ImageMirror", name);

    assertTrue(secret.length() <= 253, secret);
    assertTrue(SUBDOMAIN.matcher(secret).matches(), secret);
    assertTrue(!secret.contains(".-") && !secret.contains("-."), secret);
    char lastKept = secret.charAt(secret.length() - 1 - 10 - 1);
    assertTrue(Character.isLetterOrDigit(lastKept), () -> "the cut ends on '" + lastKept + "'");
  }

  @Test
  void everyGeneratedNameGivesAValidBoundedSecretName() {
    Random random = new Random(7_253L);
    Map<String, String> seen = new HashMap<>();
    for (int run = 0; run < 5_000; run++) {
      String name = randomSubdomain(random, 1 + random.nextInt(253));
      String kind = random.nextBoolean() ? "ImageMirror" : "ImageAlternative";
      String full = SecretNames.INJECT_PREFIX + kind.toLowerCase() + "-" + name;

      String secret = SecretNames.injected(kind, name);

      assertTrue(secret.length() <= 253, secret);
      assertTrue(SUBDOMAIN.matcher(secret).matches(), secret);
      assertTrue(Dns1123.isSubdomain(secret), secret);
      if (full.length() <= 253) {
        assertEquals(full, secret);
      }
      assertEquals(secret, SecretNames.injected(kind, name));
      String before = seen.put(secret, full);
      assertTrue(before == null || before.equals(full), () -> before + " and " + full);

      String provider = SecretNames.provider(name);
      assertTrue(Dns1123.isSubdomain(provider), provider);
    }
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"", "Prod", "prod_mirror", "-prod", "prod-", "a..b", "a.-b", "a b"})
  void refusesAResourceNameKubernetesWouldRefuse(String name) {
    assertThrows(IllegalArgumentException.class, () -> SecretNames.injected("ImageMirror", name));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"", "Image-Mirror", "1Mirror", "Image.Mirror"})
  void refusesSomethingThatIsNotAKind(String kind) {
    assertThrows(IllegalArgumentException.class, () -> SecretNames.injected(kind, "x"));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"", ".x", "X", "x-", "x_y"})
  void refusesAProviderSuffixThatMakesAnInvalidName(String suffix) {
    assertThrows(IllegalArgumentException.class, () -> SecretNames.provider(suffix));
  }

  /** A single label of lower-case letters and digits, {@code length} long. */
  private static String label(int length) {
    StringBuilder label = new StringBuilder();
    for (int i = 0; i < length; i++) {
      label.append((char) ('a' + i % 26));
    }
    return label.toString();
  }

  /**
   * A random valid subdomain of exactly {@code length} characters, dense in '.' and '-' so that
   * cuts often land next to a separator.
   */
  private static String randomSubdomain(Random random, int length) {
    String alnum = "abcdefghijklmnopqrstuvwxyz0123456789";
    StringBuilder name = new StringBuilder();
    while (name.length() < length) {
      int left = length - name.length();
      char previous = name.length() == 0 ? '.' : name.charAt(name.length() - 1);
      boolean canSeparate = Character.isLetterOrDigit(previous) && left >= 2;
      int pick = random.nextInt(6);
      if (canSeparate && pick == 0) {
        name.append('.');
      } else if (previous != '.' && left >= 2 && pick == 1) {
        name.append('-');
      } else {
        name.append(alnum.charAt(random.nextInt(alnum.length())));
      }
    }
    return name.toString();
  }

  private static String sha256Hex(String text) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }
}
