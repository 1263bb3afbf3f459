package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DockerConfigTest {

  /** Planted in every malformed document, so a message that quotes the input is caught. */
  private static final String SECRET = "s3cr3tValue";

  @Test
  void decodesAuthIntoUsernameAndPasswordAsKubectlWritesIt() throws Exception {
    String json =
        """
        {"auths":{"quay.io":{"username":"robot","password":"%s","email":"a@b.c","auth":"%s"}}}
        """
            .formatted(SECRET, base64("robot:" + SECRET));

    DockerConfig config = DockerConfig.parse(json);

    assertEquals(Map.of("quay.io", RegistryCredential.basic("robot", SECRET)), config.auths());
  }

  @Test
  void authWinsOverTheSeparateFields() throws Exception {
    String json =
        """
        {"auths":{"quay.io":{"auth":"%s","username":"other","password":"stale"}}}
        """
            .formatted(base64("robot:fresh"));

    RegistryCredential credential = DockerConfig.parse(json).auths().get("quay.io");

    assertEquals(RegistryCredential.basic("robot", "fresh"), credential);
  }

  @Test
  void aPasswordMayHoldColonsBecauseAuthSplitsAtTheFirst() throws Exception {
    String json = "{\"auths\":{\"quay.io\":{\"auth\":\"%s\"}}}".formatted(base64("robot:a:b:c"));

    RegistryCredential credential = DockerConfig.parse(json).auths().get("quay.io");

    assertEquals(RegistryCredential.basic("robot", "a:b:c"), credential);
  }

  /** config.go, decodeDockerConfigFieldAuth: RawStdEncoding unless the field ends with '='. */
  @ParameterizedTest
  @ValueSource(strings = {"dTpwYQ", "dTpwYQ==", "dTpw\\nYQ==", "dTpwYQ==\\r\\n"})
  void readsAuthPaddedOrNotAndSkipsLineBreaksAsTheKubelet(String auth) throws Exception {
    String json = "{\"auths\":{\"quay.io\":{\"auth\":\"%s\"}}}".formatted(auth);

    assertEquals(
        RegistryCredential.basic("u", "pa"), DockerConfig.parse(json).auths().get("quay.io"));
  }

  @Test
  void anEmptyAuthLeavesTheSeparateFieldsInCharge() throws Exception {
    String json = "{\"auths\":{\"quay.io\":{\"auth\":\"\",\"username\":\"u\",\"password\":\"p\"}}}";

    assertEquals(
        RegistryCredential.basic("u", "p"), DockerConfig.parse(json).auths().get("quay.io"));
  }

  @Test
  void readsTokensAndLeavesAbsentPartsNull() throws Exception {
    String json =
        """
        {"auths":{"a.example.com":{"identitytoken":"id-tok"},
                  "b.example.com":{"registrytoken":"reg-tok","username":null}}}
        """;

    DockerConfig config = DockerConfig.parse(json);

    assertEquals(
        new RegistryCredential(null, null, "id-tok", null), config.auths().get("a.example.com"));
    assertEquals(
        new RegistryCredential(null, null, null, "reg-tok"), config.auths().get("b.example.com"));
  }

  @Test
  void anEntryWithNoCredentialIsKeptAndSaysItIsEmpty() throws Exception {
    RegistryCredential credential =
        DockerConfig.parse("{\"auths\":{\"quay.io\":{\"email\":\"a@b.c\"}}}")
            .auths()
            .get("quay.io");

    assertTrue(credential.isEmpty());
    assertFalse(RegistryCredential.basic("u", "p").isEmpty());
  }

  @Test
  void anEmptyAuthsObjectIsValid() throws Exception {
    assertEquals(DockerConfig.empty(), DockerConfig.parse("{\"auths\":{}}"));
    assertTrue(DockerConfig.parse(" {\"auths\" : {} }\n").auths().isEmpty());
  }

  @Test
  void keepsTheDocumentOrderOfKeys() throws Exception {
    String json = "{\"auths\":{\"z.io\":{},\"a.io\":{},\"m.io\":{}}}";

    assertEquals(
        List.of("z.io", "a.io", "m.io"), List.copyOf(DockerConfig.parse(json).auths().keySet()));
  }

  @Test
  void aRepeatedKeyKeepsItsLastValueAtItsFirstPlace() throws Exception {
    String json =
        "{\"auths\":{\"a.io\":{\"username\":\"1\"},\"b.io\":{},\"a.io\":{\"username\":\"2\"}}}";

    DockerConfig config = DockerConfig.parse(json);

    assertEquals(List.of("a.io", "b.io"), List.copyOf(config.auths().keySet()));
    assertEquals("2", config.auths().get("a.io").username());
  }

  @Test
  void ignoresFieldsItDoesNotUse() throws Exception {
    String json =
        """
        {"credsStore":"desktop","HttpHeaders":{"User-Agent":"x"},
         "auths":{"quay.io":{"username":"u","password":"p","email":"e","extra":[1,2]}}}
        """;

    assertEquals(
        RegistryCredential.basic("u", "p"), DockerConfig.parse(json).auths().get("quay.io"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          not JSON                  | {"auths":{"quay.io":{"password":SECRET}}}          | not valid JSON (line 1, column
          trailing garbage          | {"auths":{}} SECRET                                | not valid JSON
          empty                     | ''                                                 | empty
          top level an array        | ["SECRET"]                                         | top level is not a JSON object
          top level a string        | "SECRET"                                           | top level is not a JSON object
          no auths                  | {"quay.io":{"password":"SECRET"}}                  | no "auths" object
          auths an array            | {"auths":["SECRET"]}                               | no "auths" object
          auths null                | {"auths":null,"x":"SECRET"}                        | no "auths" object
          entry a string            | {"auths":{"quay.io":"SECRET"}}                     | auths entry "quay.io" is not a JSON object
          entry null                | {"auths":{"quay.io":null,"x":"SECRET"}}            | auths entry "quay.io" is not a JSON object
          auth not base64           | {"auths":{"quay.io":{"auth":"SECRET!!"}}}          | auths entry "quay.io": auth is not standard base64
          auth padded short         | {"auths":{"quay.io":{"auth":"dTpwYQ="}}}           | auths entry "quay.io": auth is not standard base64
          auth padding inside       | {"auths":{"quay.io":{"auth":"dTp=wYQ"}}}           | auths entry "quay.io": auth is not standard base64
          auth without colon        | {"auths":{"quay.io":{"auth":"B64_SECRET"}}}        | auths entry "quay.io": auth does not decode to user:password
          auth not UTF-8            | {"auths":{"quay.io":{"auth":"/w=="}}}              | auths entry "quay.io": auth does not decode to UTF-8
          password a number         | {"auths":{"quay.io":{"password":12345}}}           | auths entry "quay.io": password is not a string
          username an object        | {"auths":{"q.io":{"username":{"v":"SECRET"}}}}     | auths entry "q.io": username is not a string
          identitytoken an array    | {"auths":{"q.io":{"identitytoken":["SECRET"]}}}    | auths entry "q.io": identitytoken is not a string
          """)
  void refusesMalformedInputWithAReasonThatQuotesNoValue(
      String description, String json, String expectedReason) {
    String planted =
        json.replace("B64_SECRET", base64(SECRET)).replace("SECRET", SECRET).replace("''", "");

    InvalidDockerConfigException e =
        assertThrows(InvalidDockerConfigException.class, () -> DockerConfig.parse(planted));

    assertTrue(
        e.getMessage().contains(expectedReason),
        () -> "expected \"" + expectedReason + "\" in \"" + e.getMessage() + "\"");
    assertFalse(e.getMessage().contains(SECRET), e::getMessage);
    assertFalse(e.getMessage().contains(base64(SECRET)), e::getMessage);
    assertNull(e.getCause(), "a cause could carry the parser's message, which quotes the input");
  }

  @Test
  void writesTheCanonicalShapeWithSortedKeys() {
    Map<String, RegistryCredential> auths = new LinkedHashMap<>();
    auths.put("quay.io/other", new RegistryCredential(null, null, "tok", null));
    auths.put("quay.io/acme", RegistryCredential.basic("robot", "pw"));

    String json = new DockerConfig(auths).toJson();

    assertEquals(
        "{\"auths\":{"
            + "\"quay.io/acme\":{\"auth\":\""
            + base64("robot:pw")
            + "\",\"password\":\"pw\",\"username\":\"robot\"},"
            + "\"quay.io/other\":{\"identitytoken\":\"tok\"}}}",
        json);
  }

  @Test
  void writesAnEmptyConfigAsEmptyAuths() {
    assertEquals("{\"auths\":{}}", DockerConfig.empty().toJson());
  }

  @Test
  void leavesAuthOutWhenItCouldNotDecodeBack() throws Exception {
    RegistryCredential colonUser = RegistryCredential.basic("a:b", "pw");
    RegistryCredential userOnly = new RegistryCredential("u", null, null, null);

    String json = new DockerConfig(Map.of("x.io", colonUser, "y.io", userOnly)).toJson();

    assertFalse(json.contains("\"auth\""), json);
    assertEquals(colonUser, DockerConfig.parse(json).auths().get("x.io"));
    assertEquals(userOnly, DockerConfig.parse(json).auths().get("y.io"));
  }

  @Test
  void sameEntriesInAnyOrderGiveTheSameBytes() {
    Map<String, RegistryCredential> forward = new LinkedHashMap<>();
    forward.put("b.io", RegistryCredential.basic("u1", "p1"));
    forward.put("a.io", new RegistryCredential("u2", "p2", "i2", "r2"));
    Map<String, RegistryCredential> backward = new LinkedHashMap<>();
    backward.put("a.io", new RegistryCredential("u2", "p2", "i2", "r2"));
    backward.put("b.io", RegistryCredential.basic("u1", "p1"));

    assertEquals(new DockerConfig(forward), new DockerConfig(backward));
    assertEquals(new DockerConfig(forward).toJson(), new DockerConfig(backward).toJson());
  }

  @Test
  void parsingWhatItWroteGivesBackTheSameConfigAndTheSameBytes() throws Exception {
    Random random = new Random(20240611L);
    for (int run = 0; run < 500; run++) {
      DockerConfig config = randomConfig(random);

      String json = config.toJson();
      DockerConfig reread = DockerConfig.parse(json);

      assertEquals(config, reread, json);
      assertEquals(json, reread.toJson());
    }
  }

  @Test
  void neverShowsACredentialInItsText() {
    RegistryCredential credential = new RegistryCredential("robot-user", SECRET, "idTok", "regTok");
    DockerConfig config = new DockerConfig(Map.of("quay.io", credential));

    for (String text : List.of(credential.toString(), config.toString())) {
      for (String value : List.of("robot-user", SECRET, "idTok", "regTok")) {
        assertFalse(text.contains(value), text);
      }
    }
    assertTrue(
        config.toString().contains("quay.io"), "the key is not a secret and helps debugging");
  }

  @Test
  void aCredentialsTextSaysWhichPartsArePresent() {
    assertEquals(
        "RegistryCredential[username=<redacted>, password=<redacted>, identityToken=absent,"
            + " registryToken=absent]",
        RegistryCredential.basic("robot-user", SECRET).toString());
  }

  @Test
  void isImmutableAndIndependentOfTheMapItWasBuiltFrom() {
    Map<String, RegistryCredential> source = new LinkedHashMap<>();
    source.put("quay.io", RegistryCredential.basic("u", "p"));
    DockerConfig config = new DockerConfig(source);

    source.put("other.io", RegistryCredential.basic("u", "p"));

    assertEquals(List.of("quay.io"), List.copyOf(config.auths().keySet()));
    assertThrows(
        UnsupportedOperationException.class,
        () -> config.auths().put("x.io", RegistryCredential.basic("u", "p")));
  }

  private static DockerConfig randomConfig(Random random) {
    Map<String, RegistryCredential> auths = new LinkedHashMap<>();
    int entries = random.nextInt(5);
    for (int i = 0; i < entries; i++) {
      auths.put(
          randomText(random, 1, 30),
          new RegistryCredential(
              maybe(random, randomText(random, 0, 20)),
              maybe(random, randomText(random, 0, 40)),
              maybe(random, randomText(random, 0, 40)),
              maybe(random, randomText(random, 0, 40))));
    }
    return new DockerConfig(auths);
  }

  private static String maybe(Random random, String value) {
    return random.nextInt(3) == 0 ? null : value;
  }

  /** Text with the characters that stress escaping and auth: quotes, colons, controls, accents. */
  private static String randomText(Random random, int min, int max) {
    String alphabet = "abcXYZ019:/.-_\"\\ \t\n\u00e9\u4e2d\u0001";
    StringBuilder text = new StringBuilder();
    int length = min + random.nextInt(max - min + 1);
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
