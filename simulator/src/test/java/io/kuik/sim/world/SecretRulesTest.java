package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static io.kuik.sim.world.Fixture.b64;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Secret rules of https://kubernetes.io/docs/concepts/configuration/secret/, as the API server
 * enforces them (docs/behaviour.md#kubernetes-secret-rules).
 */
class SecretRulesTest {

  /** Half of the 1 MiB limit: two halves are exactly the limit. */
  private static final int HALF = 512 * 1024;

  private final Fixture f = new Fixture();

  SecretRulesTest() {
    f.namespace("team-a");
  }

  private ApiException refused(ObjectNode secret) {
    return assertThrows(ApiException.class, () -> f.api.create(ADMIN, secret));
  }

  @Test
  void stringDataWinsOverDataAndIsNotStored() {
    ObjectNode s = Fixture.opaque("team-a", "s", "user", "from-data");
    s.withObjectProperty("data").put("other", b64("kept"));
    s.putObject("stringData").put("user", "from-stringData");
    ObjectNode stored = f.api.create(ADMIN, s);
    assertEquals("from-stringData", Fixture.decoded(stored, "user"));
    assertEquals("kept", Fixture.decoded(stored, "other"));
    assertFalse(stored.has("stringData"));
    assertFalse(f.get(ResourceType.SECRET, "team-a", "s").has("stringData"));
  }

  @Test
  void aSecretOverOneMebibyteOfDecodedDataIsRefused() {
    byte[] half = new byte[HALF];
    Arrays.fill(half, (byte) 'x');
    ObjectNode s = Fixture.secret("team-a", "big", "Opaque");
    s.putObject("data")
        .put("a", java.util.Base64.getEncoder().encodeToString(half))
        .put("b", java.util.Base64.getEncoder().encodeToString(new byte[HALF + 1]));
    ApiException e = refused(s);
    assertEquals(422, e.code());
    assertEquals(
        "Secret \"big\" is invalid: data: Too long: must have at most 1048576 bytes",
        e.getMessage());
  }

  @Test
  void aSecretOfExactlyOneMebibyteIsAccepted() {
    ObjectNode s = Fixture.secret("team-a", "edge", "Opaque");
    s.putObject("data")
        .put("a", java.util.Base64.getEncoder().encodeToString(new byte[1024 * 1024]));
    assertDoesNotThrow(() -> f.api.create(ADMIN, s));
  }

  @Test
  void aDockerconfigjsonSecretWithInvalidJsonIsRefusedWithoutShowingIt() {
    ObjectNode s = Fixture.secret("team-a", "pull", "kubernetes.io/dockerconfigjson");
    s.putObject("data")
        .put(".dockerconfigjson", b64("{\"auths\": {\"reg\": {\"password\":\"hunter2\""));
    ApiException e = refused(s);
    assertEquals(422, e.code());
    assertTrue(
        e.getMessage()
            .startsWith(
                "Secret \"pull\" is invalid: data[.dockerconfigjson]: Invalid value: \"<secret"
                    + " contents redacted>\": "),
        e.getMessage());
    assertFalse(e.getMessage().contains("hunter2"));
  }

  @Test
  void aDockerconfigjsonValueMustBeAJsonObject() {
    ObjectNode s = Fixture.secret("team-a", "pull", "kubernetes.io/dockerconfigjson");
    s.putObject("data").put(".dockerconfigjson", b64("[1,2]"));
    assertTrue(
        refused(s)
            .getMessage()
            .endsWith(
                "json: cannot unmarshal array into Go value of type map[string]interface {}"));
  }

  // If a Secret of type ... has only the keys ..., expect the error ... (empty: accepted).
  @ParameterizedTest(name = "{0} with [{1}] -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "kubernetes.io/dockerconfigjson|  |data[.dockerconfigjson]: Required value",
        "kubernetes.io/dockerconfigjson|.dockerconfigjson={\"auths\":{}}|",
        "kubernetes.io/dockercfg|  |data[.dockercfg]: Required value",
        "kubernetes.io/dockercfg|.dockercfg={}|",
        "kubernetes.io/basic-auth|  |[data[username]: Required value, data[password]: Required value]",
        "kubernetes.io/basic-auth|password=x|",
        "kubernetes.io/basic-auth|username=|",
        "kubernetes.io/ssh-auth|  |data[ssh-privatekey]: Required value",
        "kubernetes.io/ssh-auth|ssh-privatekey=|data[ssh-privatekey]: Required value",
        "kubernetes.io/ssh-auth|ssh-privatekey=k|",
        "kubernetes.io/tls|tls.crt=c|data[tls.key]: Required value",
        "kubernetes.io/tls|tls.crt=c,tls.key=k|",
        "kubernetes.io/service-account-token|  |metadata.annotations[kubernetes.io/service-account.name]: Required value",
        "Opaque|  |",
        "example.com/custom|  |"
      })
  void typeSpecificKeysAreRequired(String type, String keys, String expected) {
    ObjectNode s = Fixture.secret("team-a", "s", type);
    ObjectNode data = s.putObject("data");
    if (keys != null) {
      for (String pair : keys.split(",")) {
        String[] kv = pair.split("=", 2);
        data.put(kv[0], b64(kv[1]));
      }
    }
    if (expected == null) {
      assertDoesNotThrow(() -> f.api.create(ADMIN, s));
    } else {
      assertEquals("Secret \"s\" is invalid: " + expected, refused(s).getMessage());
    }
  }

  @ParameterizedTest(name = "key {0}")
  @CsvSource({"has space", "slash/key", "..hidden", ".", "colon:key"})
  void dataKeysOutsideTheAllowedCharactersAreRefused(String key) {
    ObjectNode s = Fixture.secret("team-a", "s", "Opaque");
    s.putObject("stringData").put(key, "v");
    ApiException e = refused(s);
    assertEquals(422, e.code());
    assertTrue(
        e.getMessage().contains("data[" + key + "]: Invalid value: \"" + key + "\""),
        e.getMessage());
  }

  @ParameterizedTest(name = "name {0}")
  @CsvSource({"Upper", "under_score", "-leading", "trailing."})
  void namesMustBeDnsSubdomains(String name) {
    ApiException e = refused(Fixture.opaque("team-a", name, "k", "v"));
    assertTrue(
        e.getMessage()
            .startsWith(
                "Secret \""
                    + name
                    + "\" is invalid: metadata.name: Invalid value: \""
                    + name
                    + "\": a lowercase RFC 1123 subdomain"),
        e.getMessage());
  }

  @Test
  void malformedBase64IsABadRequest() {
    ObjectNode s = Fixture.secret("team-a", "s", "Opaque");
    s.putObject("data").put("k", "not base64!");
    ApiException e = refused(s);
    assertEquals(400, e.code());
    assertEquals(
        "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 3",
        e.getMessage());
  }

  @Test
  void theTypeDefaultsToOpaqueAndCannotChange() {
    ObjectNode s = Fixture.opaque("team-a", "s", "k", "v");
    s.remove("type");
    ObjectNode stored = f.api.create(ADMIN, s);
    assertEquals("Opaque", stored.path("type").asString());
    stored.put("type", "kubernetes.io/basic-auth");
    stored.withObjectProperty("data").put("username", b64("u"));
    ApiException e = assertThrows(ApiException.class, () -> f.api.update(ADMIN, stored));
    assertEquals(
        "Secret \"s\" is invalid: type: Invalid value: \"kubernetes.io/basic-auth\": field is immutable",
        e.getMessage());
  }

  @Test
  void anImmutableSecretsDataCannotChange() {
    ObjectNode s = Fixture.opaque("team-a", "s", "k", "v");
    s.put("immutable", true);
    ObjectNode stored = f.api.create(ADMIN, s);
    stored.withObjectProperty("data").put("k", b64("changed"));
    ApiException e = assertThrows(ApiException.class, () -> f.api.update(ADMIN, stored));
    assertEquals(
        "Secret \"s\" is invalid: data: Forbidden: field is immutable when `immutable` is set",
        e.getMessage());
  }

  @Test
  void immutableCannotBeUnsetOnceTrue() {
    ObjectNode s = Fixture.opaque("team-a", "s", "k", "v");
    s.put("immutable", true);
    ObjectNode stored = f.api.create(ADMIN, s);
    stored.put("immutable", false);
    assertEquals(
        "Secret \"s\" is invalid: immutable: Forbidden: field is immutable when `immutable` is set",
        assertThrows(ApiException.class, () -> f.api.update(ADMIN, stored)).getMessage());
    ObjectNode labelled = f.get(ResourceType.SECRET, "team-a", "s");
    labelled.withObjectProperty("metadata").putObject("labels").put("still", "editable");
    assertDoesNotThrow(
        () -> f.api.update(ADMIN, labelled), "metadata of an immutable Secret can change");
  }

  @Test
  void aMutableSecretCanBecomeImmutable() {
    ObjectNode stored = f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "v"));
    stored.put("immutable", true);
    assertTrue(f.api.update(ADMIN, stored).path("immutable").asBoolean());
  }

  @Test
  void anObjectNamingNoServedKindIsABadRequest() {
    ObjectNode cm =
        Json.yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: team-a}");
    assertEquals(400, refused(cm).code());
  }
}
