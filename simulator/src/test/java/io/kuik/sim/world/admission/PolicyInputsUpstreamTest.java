package io.kuik.sim.world.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.Verb;
import io.kuik.sim.world.object.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code request} a ValidatingAdmissionPolicy's expressions read, as upstream builds it, where
 * the chart's policies read it: {@code dryRun} from the request ({@code
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/filter.go}, {@code
 * CreateAdmissionRequest}), {@code name} the generated one under generateName ({@code
 * staging/src/k8s.io/apiserver/pkg/registry/rest/create.go}, {@code
 * AdmissionToValidateObjectFunc}), and {@code userInfo.extra} as the service account authenticator
 * fills it for each kind of token ({@code
 * staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go}, {@code
 * ServiceAccountInfo.UserInfo}; {@code pkg/serviceaccount/legacy.go}).
 */
class PolicyInputsUpstreamTest {

  private static AdmissionRequest create(
      Identity who, ObjectNode secret, String name, boolean dry) {
    return new AdmissionRequest(
        new RequestAttributes(who, Verb.CREATE, ResourceType.SECRET, "team-a", name, null),
        Operation.CREATE,
        secret,
        null,
        dry);
  }

  private static ObjectNode secret(String name, String generateName) {
    ObjectNode secret = Json.object();
    secret.put("apiVersion", "v1");
    secret.put("kind", "Secret");
    ObjectNode meta = secret.putObject("metadata").put("name", name).put("namespace", "team-a");
    if (generateName != null) {
      meta.put("generateName", generateName);
    }
    return secret;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> request(AdmissionRequest request) {
    return (Map<String, Object>)
        PolicyInputs.of(request, new InMemoryClusterState()).get("request");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> userInfo(Identity who) {
    return (Map<String, Object>)
        request(create(who, secret("s", null), "s", false)).get("userInfo");
  }

  @Test
  void dryRunIsTheRequestsOwn() {
    Identity alice = Identity.person("alice");

    assertEquals(true, request(create(alice, secret("s", null), "s", true)).get("dryRun"));
    assertEquals(false, request(create(alice, secret("s", null), "s", false)).get("dryRun"));
  }

  @Test
  void underGenerateNameValidatingAdmissionSeesTheGeneratedName() {
    ObjectNode generated = secret("kuik-inject-x7k2p", "kuik-inject-");

    Object name = request(create(Identity.person("alice"), generated, null, false)).get("name");

    assertEquals("kuik-inject-x7k2p", name);
  }

  @Test
  void aPodsTokenCarriesItsPodItsNodeAndItsCredentialId() {
    Map<String, Object> info =
        userInfo(Identity.serviceAccountInPod("kuik-system", "kuik-secret-syncer", "p-0", "u-0"));

    @SuppressWarnings("unchecked")
    Map<String, Object> extra = (Map<String, Object>) info.get("extra");
    assertEquals(
        List.of(
            "authentication.kubernetes.io/credential-id",
            "authentication.kubernetes.io/node-name",
            "authentication.kubernetes.io/node-uid",
            "authentication.kubernetes.io/pod-name",
            "authentication.kubernetes.io/pod-uid"),
        List.copyOf(new java.util.TreeSet<>(extra.keySet())));
    assertEquals(List.of("p-0"), extra.get(Identity.POD_NAME));
    assertEquals(List.of("JTI=jti-u-0"), extra.get(Identity.CREDENTIAL_ID));
  }

  @Test
  void aTokenFromKubectlCreateTokenCarriesItsCredentialIdAlone() {
    Map<String, Object> info =
        userInfo(Identity.serviceAccountToken("kuik-system", "kuik-secret-syncer", "abc"));

    assertEquals(Map.of(Identity.CREDENTIAL_ID, List.of("JTI=abc")), info.get("extra"));
  }

  @Test
  void aLegacyTokenSecretCarriesNoExtraAtAll() {
    Map<String, Object> info =
        userInfo(Identity.serviceAccount("kuik-system", "kuik-secret-syncer"));

    assertFalse(info.containsKey("extra"), "left out when empty: " + info);
  }
}
