package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Redaction as a property: for generated credentials (printable ASCII with the characters that
 * encodings change, spaces, non-ASCII), every form of each, however a registry's answer embeds it,
 * and wherever a writer cuts the text short, is gone once the text passed the redactor.
 */
public class RedactorTest {

  private static final String ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 +/=%&?:@\"\\'<>#é€中";

  /** A credential value of 6 to 40 characters, drawn from every class an encoding changes. */
  public static String secret(Random random) {
    StringBuilder out = new StringBuilder();
    int length = 6 + random.nextInt(35);
    for (int i = 0; i < length; i++) {
      out.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return out.toString();
  }

  private static RegistryCredential credential(Random random) {
    return switch (random.nextInt(3)) {
      case 0 -> RegistryCredential.basic("user-" + random.nextInt(100), secret(random));
      case 1 -> new RegistryCredential("<token>", null, secret(random), null);
      default -> new RegistryCredential(null, null, null, secret(random));
    };
  }

  /** The ways a registry echoes what it was sent. */
  private static List<String> echoes(RegistryCredential credential) {
    List<String> echoes = new ArrayList<>();
    for (String form : Redactor.formsOf(credential)) {
      echoes.add("401 bad credentials in header Basic " + form + " (try again)");
      echoes.add("{\"error\":\"invalid\",\"sent\":\"" + form + "\"}");
      echoes.add(form);
    }
    if (credential.password() != null) {
      String pair = credential.username() + ":" + credential.password();
      echoes.add(
          "Authorization: Basic "
              + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
      echoes.add(
          "grant_type=password&password="
              + URLEncoder.encode(credential.password(), StandardCharsets.UTF_8));
    }
    if (credential.identityToken() != null) {
      echoes.add(
          "refresh_token="
              + URLEncoder.encode(credential.identityToken(), StandardCharsets.UTF_8)
              + "&client_id=kuik");
    }
    return echoes;
  }

  /** The text outside the redaction marks: what a form must not show in. */
  private static String outsideTheMarks(String text) {
    return text.replace(Redactor.MARK, "\u0000");
  }

  @Test
  void noFormOfAGeneratedCredentialSurvivesAnyEchoOrAnyCut() {
    Random random = new Random(34);
    for (int round = 0; round < 300; round++) {
      List<RegistryCredential> credentials = new ArrayList<>();
      for (int i = 0; i < 1 + random.nextInt(3); i++) {
        credentials.add(credential(random));
      }
      Redactor redactor = Redactor.of(credentials);
      for (RegistryCredential credential : credentials) {
        for (String echo : echoes(credential)) {
          String redacted = redactor.redact(echo);
          for (String form : Redactor.formsOf(credential)) {
            assertFalse(
                outsideTheMarks(redacted).contains(form), () -> "round " + echo + " → " + redacted);
          }
          // Cut short as a verdict or a log line cuts it, at every place.
          String padded = "the registry answered: " + echo;
          for (int cut = 1; cut < padded.length(); cut++) {
            String shown = redactor.redact(padded.substring(0, cut) + "...");
            for (String form : Redactor.formsOf(credential)) {
              String rest = outsideTheMarks(shown);
              assertFalse(rest.contains(form), shown);
              int start = padded.indexOf(form);
              if (start >= 0 && cut - start >= Redactor.CUT_PREFIX && cut < start + form.length()) {
                assertFalse(
                    rest.contains(form.substring(0, cut - start)),
                    () -> "a cut form left its start: " + shown);
              }
            }
          }
        }
      }
    }
  }

  @Test
  void aVerdictCutAfterRedactionLeavesNoStartOfTheBase64Pair() {
    RegistryCredential acme = RegistryCredential.basic("acme", "s3cret-of-acme");
    String echo =
        "x".repeat(280)
            + " Basic "
            + Base64.getEncoder()
                .encodeToString("acme:s3cret-of-acme".getBytes(StandardCharsets.UTF_8));

    TrialVerdict cut = TrialVerdict.refused(echo);
    String shown = Redactor.of(List.of(acme)).redact(cut).answer();

    assertTrue(cut.answer().contains("YWNtZTpz"), "the issue's case: a cut echo");
    assertFalse(shown.contains("YWNtZTpz"), shown);
    assertTrue(shown.endsWith(Redactor.MARK + "..."), shown);
  }

  @Test
  void textWithoutAnyFormIsLeftAsItIs() {
    Redactor redactor = Redactor.of(List.of(RegistryCredential.basic("alice", "s3cret")));
    String text = "GET /v2/ answered 401 UNAUTHORIZED: authentication required...";

    assertEquals(text, redactor.redact(text));
    assertEquals(text, Redactor.none().redact(text));
  }

  @Test
  void aTokenTheRealmGaveIsTakenOutToo() {
    Redactor redactor = Redactor.none().withSecret("eyJhbGciOiJSUzI1NiJ9.payload.sig");

    assertEquals(
        "echo Bearer " + Redactor.MARK,
        redactor.redact("echo Bearer eyJhbGciOiJSUzI1NiJ9.payload.sig"));
  }

  @Test
  void theFormsOfAUserAndPasswordAreEveryEncodingOfEach() {
    RegistryCredential alice = RegistryCredential.basic("alice", "x>?~");

    assertEquals(
        java.util.Set.of(
            "x>?~",
            "x%3E%3F%7E",
            "YWxpY2U6eD4/fg==",
            "YWxpY2U6eD4/fg",
            "YWxpY2U6eD4_fg==",
            "YWxpY2U6eD4_fg"),
        Redactor.formsOf(alice));
  }

  @Test
  void theFormsOfAnIdentityTokenAreItsEncodingsAndItsJsonEscapes() {
    RegistryCredential token = new RegistryCredential(null, null, "id tok\"en", null);

    assertEquals(
        Set.of("id tok\"en", "id+tok%22en", "id%20tok%22en", "id tok\\\"en"),
        Redactor.formsOf(token));
  }

  @Test
  void theFormsOfARegistryTokenEscapeAControlCharacterAsJsonDoes() {
    RegistryCredential token = new RegistryCredential(null, null, null, "reg\ttok\u0001en");

    assertEquals(
        Set.of("reg\ttok\u0001en", "reg%09tok%01en", "reg\\ttok\\u0001en"),
        Redactor.formsOf(token));
  }

  @Test
  void aSecretOfTheShortestLengthIsTakenOutAndAShorterOneIsNot() {
    Redactor four = Redactor.none().withSecret("abcd");
    Redactor three = Redactor.none().withSecret("abc");

    assertEquals("key " + Redactor.MARK + " end", four.redact("key abcd end"));
    assertFalse(four.isEmpty());
    assertTrue(three.isEmpty());
    assertEquals("key abc end", three.redact("key abc end"));
  }

  @Test
  void anEmptyOrAbsentSecretAddsNoForm() {
    assertTrue(Redactor.none().withSecret("").withSecret(null).isEmpty());
    assertTrue(Redactor.of(List.of(new RegistryCredential("alice", null, "", null))).isEmpty());
  }

  @Test
  void aFormInsideALongerOneLeavesNothingOfTheLongerOne() {
    Redactor redactor = Redactor.none().withSecret("abcd").withSecret("abcdefgh");

    assertEquals(
        "sent " + Redactor.MARK + " and " + Redactor.MARK,
        redactor.redact("sent abcdefgh and abcd"));
  }

  @Test
  void overlappingFormsOfOneLengthAreTakenOutInOneOrderWhicheverCameFirst() {
    String text = "sent abcde";

    assertEquals(
        "sent " + Redactor.MARK + "e",
        Redactor.none().withSecret("bcde").withSecret("abcd").redact(text));
    assertEquals(
        "sent " + Redactor.MARK + "e",
        Redactor.none().withSecret("abcd").withSecret("bcde").redact(text));
  }

  @Test
  void aCredentialCutBeforeAnEllipsisCharacterLeavesNoPrefixOfIt() {
    Redactor redactor = Redactor.of(List.of(RegistryCredential.basic("alice", "s3cret-of-alice")));

    assertEquals(
        "the registry answered: " + Redactor.MARK + "\u2026",
        redactor.redact("the registry answered: s3cret-o\u2026"));
  }

  @Test
  void aTextOfOnlyTheCutMarkIsLeftAsItIs() {
    Redactor redactor = Redactor.none().withSecret("s3cret");

    assertEquals("...", redactor.redact("..."));
    assertEquals("\u2026", redactor.redact("\u2026"));
  }

  @Test
  void theLongestStartOfAnyFormCutAtTheEndGoesWhole() {
    // "abcdef" is a start of the first form; its last five are a start of the second, which comes
    // after it (same length, later in order): the longer start must win.
    Redactor redactor = Redactor.none().withSecret("abcdefgh").withSecret("bcdefzzz");

    assertEquals("token " + Redactor.MARK + "...", redactor.redact("token abcdef..."));
  }

  @Test
  void showsTellsWhetherAWholeFormIsInTheText() {
    Redactor redactor = Redactor.none().withSecret("s3cret");

    assertTrue(redactor.shows("the answer holds s3cret in it"));
    assertFalse(redactor.shows("the answer holds s3cre only"));
    assertFalse(redactor.shows(null));
    assertFalse(Redactor.none().shows("s3cret"));
  }

  @Test
  void aRedactorOfNoCredentialIsEmptyAndOneOfACredentialIsNot() {
    assertTrue(Redactor.none().isEmpty());
    assertTrue(Redactor.of(List.of()).isEmpty());
    assertFalse(Redactor.of(List.of(RegistryCredential.basic("alice", "s3cret"))).isEmpty());
  }
}
