package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The exec protocol credentialprovider.kubelet.k8s.io/v1 as the kubelet speaks it
 * (https://kubernetes.io/docs/reference/config-api/kubelet-credentialprovider.v1/, kubernetes
 * pkg/credentialprovider/plugin/plugin.go): the request, and which responses are used.
 */
class ProviderExchangeTest {

  static final String V1 = CredentialProvider.PROTOCOL_V1;

  private static ProviderExchange.Response read(String json)
      throws ProviderExchange.InvalidResponse {
    return ProviderExchange.response(json.getBytes(StandardCharsets.UTF_8), V1);
  }

  @Test
  void theRequestNamesTheImageInTheVersionAsked() {
    assertEquals(
        "{\"apiVersion\":\""
            + V1
            + "\",\"kind\":\"CredentialProviderRequest\",\"image\":\"quay.io/a\"}",
        new String(ProviderExchange.request(V1, "quay.io/a"), StandardCharsets.UTF_8));
  }

  @Test
  void readsAResponseAsTheKubeletDoes() throws Exception {
    ProviderExchange.Response response =
        read(
            "{\"apiVersion\":\""
                + V1
                + "\",\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"Registry\","
                + "\"cacheDuration\":\"6h0m0s\",\"auth\":{\"*.dkr.ecr.*.amazonaws.com\":"
                + "{\"username\":\"AWS\",\"password\":\"tok\"}}}");

    assertEquals(ProviderExchange.CacheKeyType.Registry, response.cacheKeyType());
    assertEquals(Duration.ofHours(6), response.cacheDuration());
    assertEquals(
        RegistryCredential.basic("AWS", "tok"), response.auth().get("*.dkr.ecr.*.amazonaws.com"));
    assertEquals(
        "Response[cacheKeyType=Registry, cacheDuration=PT6H, auth=[*.dkr.ecr.*.amazonaws.com]]",
        response.toString());
  }

  @Test
  void aMissingCacheDurationIsNullAndAnEmptyAuthIsNoCredential() throws Exception {
    ProviderExchange.Response response =
        read(
            "{\"apiVersion\":\""
                + V1
                + "\",\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"Image\"}");
    assertNull(response.cacheDuration());
    assertTrue(response.auth().isEmpty());
  }

  @ParameterizedTest(name = "if a response is {0}, expect it refused saying {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not json at all | not a JSON object",
        "[1,2] | not a JSON object",
        "{\"apiVersion\":\"credentialprovider.kubelet.k8s.io/v1beta1\",\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"Image\"} | apiVersion is another",
        "{\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"Image\"} | apiVersion is missing",
        "{\"apiVersion\":\"V1\",\"kind\":\"CredentialProviderRequest\",\"cacheKeyType\":\"Image\"} | kind is not",
        "{\"apiVersion\":\"V1\",\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"image\"} | cacheKeyType is not",
        "{\"apiVersion\":\"V1\",\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"Image\",\"cacheDuration\":\"12 hours\"} | cacheDuration is not a duration",
        "{\"apiVersion\":\"V1\",\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"Image\",\"cacheDuration\":\"-1h\"} | negative",
        "{\"apiVersion\":\"V1\",\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"Image\",\"token\":\"s3cret\"} | unknown field",
        "{\"apiVersion\":\"V1\",\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"Image\",\"auth\":{\"quay.io\":{\"password\":\"s3cret\",\"token\":1}}} | auth \"quay.io\" has an unknown field",
        "{\"apiVersion\":\"V1\",\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"Image\",\"auth\":{\"s3cret s3cret\":\"x\"}} | (a key that is no image pattern)",
      })
  void refusesWhatTheKubeletWouldNotUseAndNeverQuotesIt(String json, String saying) {
    ProviderExchange.InvalidResponse refused =
        assertThrows(
            ProviderExchange.InvalidResponse.class,
            () -> read(json.replace("\"V1\"", "\"" + V1 + "\"")));
    assertTrue(refused.getMessage().contains(saying), refused.getMessage());
    assertFalse(refused.getMessage().contains("s3cret"), refused.getMessage());
  }

  private static String withAuth(String auth) {
    return "{\"apiVersion\":\""
        + V1
        + "\",\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"Image\","
        + "\"auth\":"
        + auth
        + "}";
  }

  @Test
  void anAbsentOrNullUsernameOrPasswordIsEmpty() throws Exception {
    ProviderExchange.Response response =
        read(
            withAuth(
                "{\"quay.io\":{\"password\":\"tok\"},"
                    + "\"ghcr.io\":{\"username\":null,\"password\":null}}"));

    assertEquals(RegistryCredential.basic("", "tok"), response.auth().get("quay.io"));
    assertEquals(RegistryCredential.basic("", ""), response.auth().get("ghcr.io"));
  }

  @Test
  void aUsernameThatIsNoStringIsRefused() {
    ProviderExchange.InvalidResponse refused =
        assertThrows(
            ProviderExchange.InvalidResponse.class,
            () -> read(withAuth("{\"quay.io\":{\"username\":7,\"password\":\"s3cret\"}}")));

    assertEquals("auth \"quay.io\" has a username or password not a string", refused.getMessage());
  }

  @Test
  void anImagePatternKeyIsQuotedUpTo255CharactersAndNotBeyond() {
    String longest = "quay.io/" + "a".repeat(247);
    String tooLong = longest + "a";

    assertEquals(
        "auth \"" + longest + "\" is not an object",
        assertThrows(
                ProviderExchange.InvalidResponse.class,
                () -> read(withAuth("{\"" + longest + "\":1}")))
            .getMessage());
    assertEquals(
        "auth (a key that is no image pattern) is not an object",
        assertThrows(
                ProviderExchange.InvalidResponse.class,
                () -> read(withAuth("{\"" + tooLong + "\":1}")))
            .getMessage());
  }
}
