package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The kubelet's CredentialProviderConfig as the syncer reads it, checked by the kubelet's rules
 * (kubernetes pkg/credentialprovider/plugin/config.go, validateCredentialProviderConfig, and
 * https://kubernetes.io/docs/reference/config-api/kubelet-config.v1/#kubelet-config-k8s-io-v1-CredentialProviderConfig).
 */
class CredentialProviderConfigTest {

  static final String ECR =
      """
      apiVersion: kubelet.config.k8s.io/v1
      kind: CredentialProviderConfig
      providers:
      - name: ecr-credential-provider
        matchImages: ["*.dkr.ecr.*.amazonaws.com", "*.dkr.ecr.*.amazonaws.com.cn"]
        defaultCacheDuration: 12h
        apiVersion: credentialprovider.kubelet.k8s.io/v1
        args: [get-credentials]
        env:
        - {name: AWS_REGION, value: eu-west-1}
      """;

  @Test
  void readsTheProvidersOfTheKubeletsOwnFile() {
    Map<String, CredentialProvider> providers = CredentialProviderConfig.parse(ECR, "ecr.yaml");

    CredentialProvider ecr = providers.get("ecr-credential-provider");
    assertEquals(List.of("get-credentials"), ecr.args());
    assertEquals(Duration.ofHours(12), ecr.defaultCacheDuration());
    assertEquals(List.of(new CredentialProvider.EnvVar("AWS_REGION", "eu-west-1")), ecr.env());
    assertTrue(ecr.serves("123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app"));
    assertFalse(ecr.serves("quay.io/acme/app"));
    assertFalse(ecr.serves("123456789012.dkr.ecr.eu-west-1.amazonaws.com.evil.io/app"));
  }

  @Test
  void anEmptyListIsNoProviderAsTheChartRendersIt() {
    assertTrue(
        CredentialProviderConfig.parse(
                "apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders: []\n",
                "f")
            .isEmpty());
  }

  @Test
  void readsJsonToo() {
    String json =
        "{\"apiVersion\":\"kubelet.config.k8s.io/v1\",\"kind\":\"CredentialProviderConfig\","
            + "\"providers\":[{\"name\":\"acr-credential-provider\",\"matchImages\":[\"*.azurecr.io\"],"
            + "\"defaultCacheDuration\":\"10m\",\"apiVersion\":\"credentialprovider.kubelet.k8s.io/v1\"}]}";
    assertEquals(
        Duration.ofMinutes(10),
        CredentialProviderConfig.parse(json, "acr.json")
            .get("acr-credential-provider")
            .defaultCacheDuration());
  }

  @ParameterizedTest(name = "if a provider is written with {0}, expect the refusal to say {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "name: a/b | may not hold '/'",
        "name: 'a b' | may not hold '/' or a space",
        "name: '..' | nor be '.' or '..'",
        "name: ECR | must be lower-case",
        "matchImages: [] | matchImages: at least 1 item",
        "matchImages: ['quay.io:abc'] | is not a registry pattern",
        "defaultCacheDuration: -1h | must be 0 or more",
        "defaultCacheDuration: 1d | is not a duration",
        "apiVersion: credentialprovider.kubelet.k8s.io/v1beta1 | kuik speaks",
        "tokenAttributes: {serviceAccountTokenAudience: x} | tokenAttributes: not supported",
        "image: x | image: unknown field",
      })
  void refusesWhatTheKubeletRefusesAndWhatKuikCannotRun(String field, String saying) {
    Map<String, String> provider = new java.util.LinkedHashMap<>();
    provider.put("name", "ecr");
    provider.put("matchImages", "['*.dkr.ecr.*.amazonaws.com']");
    provider.put("defaultCacheDuration", "12h");
    provider.put("apiVersion", "credentialprovider.kubelet.k8s.io/v1");
    String[] kv = field.split(":", 2);
    provider.put(kv[0].strip(), kv[1].strip());
    StringBuilder yaml =
        new StringBuilder(
            "apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders:\n");
    String lead = "- ";
    for (Map.Entry<String, String> e : provider.entrySet()) {
      yaml.append(lead).append(e.getKey()).append(": ").append(e.getValue()).append('\n');
      lead = "  ";
    }
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> CredentialProviderConfig.parse(yaml.toString(), "config.yaml"));
    assertTrue(refused.getMessage().contains(saying), refused.getMessage());
    assertTrue(refused.getMessage().startsWith("config.yaml: providers[0]."), refused.getMessage());
  }

  @Test
  void refusesTwoProvidersOfOneNameAndAFileOfAnotherKind() {
    String twice = ECR + ECR.substring(ECR.indexOf("- name"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> CredentialProviderConfig.parse(twice, "f"))
            .getMessage()
            .contains("listed twice"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> CredentialProviderConfig.parse(ECR.replace("kind: Cred", "kind: X"), "f"))
            .getMessage()
            .contains("kind: must be CredentialProviderConfig"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> CredentialProviderConfig.parse("providers: [\n", "f"))
            .getMessage()
            .startsWith("f is not YAML or JSON"));
  }

  @Test
  void theConfigDigestFollowsEverythingThatChangesTheAnswerAndShowsNoSecret() {
    CredentialProvider ecr =
        CredentialProviderConfig.parse(ECR, "f").get("ecr-credential-provider");
    CredentialProvider otherRegion =
        CredentialProviderConfig.parse(ECR.replace("eu-west-1", "us-east-1"), "f")
            .get("ecr-credential-provider");
    assertEquals(
        ecr.configDigest(),
        CredentialProviderConfig.parse(ECR, "f").get("ecr-credential-provider").configDigest());
    assertNotEquals(ecr.configDigest(), otherRegion.configDigest());
    assertFalse(ecr.toString().contains("eu-west-1"), ecr.toString());
  }

  @Test
  void theConfigDigestFollowsTheImagesMatchedAndTheArguments() {
    CredentialProvider ecr =
        CredentialProviderConfig.parse(ECR, "f").get("ecr-credential-provider");
    CredentialProvider chinaOnly =
        CredentialProviderConfig.parse(ECR.replace("\"*.dkr.ecr.*.amazonaws.com\", ", ""), "f")
            .get("ecr-credential-provider");

    CredentialProvider otherArgs =
        CredentialProviderConfig.parse(ECR.replace("get-credentials", "get-token"), "f")
            .get("ecr-credential-provider");

    assertEquals(List.of("*.dkr.ecr.*.amazonaws.com.cn"), chinaOnly.matchImages());
    assertNotEquals(ecr.configDigest(), chinaOnly.configDigest());
    assertNotEquals(ecr.configDigest(), otherArgs.configDigest());
  }

  @Test
  void aProviderShowsTheNamesOfItsEnvironmentButNoValue() {
    CredentialProvider ecr =
        CredentialProviderConfig.parse(ECR, "f").get("ecr-credential-provider");

    assertEquals(
        "AWS_SECRET=<value>", new CredentialProvider.EnvVar("AWS_SECRET", "s3cret").toString());
    assertEquals(
        "CredentialProvider[name=ecr-credential-provider,"
            + " matchImages=[*.dkr.ecr.*.amazonaws.com, *.dkr.ecr.*.amazonaws.com.cn],"
            + " defaultCacheDuration=PT12H, apiVersion=credentialprovider.kubelet.k8s.io/v1,"
            + " args=[get-credentials], env=[AWS_REGION=<value>]]",
        ecr.toString());
  }
}
