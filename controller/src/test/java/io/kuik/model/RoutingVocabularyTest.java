package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The small words of the routing model: kinds, rewrite policies, identities, auths. */
class RoutingVocabularyTest {

  @ParameterizedTest(name = "if the kind is {0}, expect {1} and {2}")
  @CsvSource({
    "IMAGE_ALTERNATIVE, ImageAlternative, imagealternative",
    "IMAGE_MIRROR, ImageMirror, imagemirror"
  })
  void namesEachKindAsKubernetesAndSecretNamesDo(RoutingKind kind, String name, String lower) {
    assertEquals(name, kind.kind());
    assertEquals(lower, kind.lowerName());
  }

  @Test
  void writesAResourceIdAsKindSlashName() {
    assertEquals(
        "ImageMirror/prod-mirror",
        new ResourceId(RoutingKind.IMAGE_MIRROR, "prod-mirror").toString());
  }

  @ParameterizedTest(name = "if rewritePolicy is {0}, expect {1}")
  @CsvSource(
      value = {"Always, ALWAYS", "OnFailure, ON_FAILURE", "None, NONE", "<absent>, ON_FAILURE"},
      nullValues = "<absent>")
  void readsTheRewritePolicyAsWrittenDefaultingToOnFailure(String written, RewritePolicy policy) {
    assertEquals(policy, RewritePolicy.parse(written));
  }

  @ParameterizedTest(name = "if rewritePolicy is {0}, expect a refusal")
  @ValueSource(strings = {"always", "ONFAILURE", "Never", ""})
  void refusesAnUnknownRewritePolicyNamingTheValidOnes(String written) {
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> RewritePolicy.parse(written));

    assertEquals(
        "unknown rewritePolicy \"" + written + "\": use one of Always, OnFailure, None",
        refused.getMessage());
  }

  @Test
  void writesEachPolicyBackAsItIsRead() {
    for (RewritePolicy policy : RewritePolicy.values()) {
      assertEquals(policy, RewritePolicy.parse(policy.value()));
    }
  }

  @Test
  void injectsWithInjectionOnWhichAProviderHasOffByDefault() {
    assertTrue(Auth.secretRef("pull").injects());
    assertFalse(new Auth("pull", null, false).injects());
    assertFalse(Auth.provider("ecr").injects());
    assertTrue(new Auth(null, "ecr", true).injects(), "a provider with injectPullSecret: true");
  }

  @Test
  void refusesAnAuthWithBothOrNeitherCredential() {
    assertThrows(IllegalArgumentException.class, () -> new Auth("pull", "ecr", true));
    assertThrows(IllegalArgumentException.class, () -> new Auth(null, null, true));
  }
}
