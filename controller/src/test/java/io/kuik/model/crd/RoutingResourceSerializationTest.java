package io.kuik.model.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kuik.model.RewritePolicy;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The typed resources survive Jackson 3 both ways, as the informers and the API server see them.
 */
class RoutingResourceSerializationTest {

  private final KubernetesSerialization serialization = new KubernetesSerialization();

  @Test
  void imageAlternativeRoundTripsThroughYaml() {
    ImageAlternative resource = new ImageAlternative();
    resource.setMetadata(new ObjectMetaBuilder().withName("acme-foo").withUid("u-1").build());
    resource.setSpec(
        new ImageAlternativeSpec(
            new LabelSelectorBuilder().addToMatchLabels("app", "web").build(),
            null,
            "Always",
            List.of(
                new AlternativeSpec("quay.io/acme/foo", null, null),
                new AlternativeSpec(
                    "registry.example.com/acme/foo",
                    null,
                    new AuthSpec(new SecretRefSpec("example-pull"), null, false)))));

    String yaml = serialization.asYaml(resource);
    ImageAlternative read = serialization.unmarshal(yaml, ImageAlternative.class);

    assertEquals("kuik.enix.io/v1alpha1", read.getApiVersion());
    assertEquals("ImageAlternative", read.getKind());
    assertEquals(resource.getMetadata(), read.getMetadata());
    assertEquals(resource.getSpec(), read.getSpec());
    assertFalse(yaml.contains("null"), "absent fields stay absent:\n" + yaml);
  }

  @Test
  void imageMirrorRoundTripsThroughJson() {
    ImageMirror resource = new ImageMirror();
    resource.setMetadata(new ObjectMetaBuilder().withName("prod-mirror").build());
    resource.setSpec(
        new ImageMirrorSpec(
            null,
            new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey("tier")
                .withOperator("In")
                .withValues("prod")
                .endMatchExpression()
                .build(),
            null,
            new DestinationSpec(
                "registry.example.com/mirror/", new PullSpec(new AuthSpec(null, "ecr", null)))));

    ImageMirror read = serialization.unmarshal(serialization.asJson(resource), ImageMirror.class);

    assertEquals(resource.getSpec(), read.getSpec());
  }

  @Test
  void keepsAnUnwrittenInjectPullSecretAbsentSoItsDefaultCanDependOnTheForm() {
    ImageMirror read =
        serialization.unmarshal(
            "apiVersion: kuik.enix.io/v1alpha1\n"
                + "kind: ImageMirror\n"
                + "metadata: {name: m}\n"
                + "spec:\n"
                + "  destination:\n"
                + "    path: registry.example.com/mirror/\n"
                + "    pull: {auth: {secretRef: {name: mirror-read}}}\n",
            ImageMirror.class);

    assertNull(read.getSpec().destination().pull().auth().injectPullSecret());
  }

  @Test
  void readsFieldsItDoesNotKnowWithoutFailing() {
    ImageAlternative read =
        serialization.unmarshal(
            "apiVersion: kuik.enix.io/v1alpha1\n"
                + "kind: ImageAlternative\n"
                + "metadata: {name: a}\n"
                + "spec:\n"
                + "  futureField: 1\n"
                + "  rewritePolicy: Sometimes\n"
                + "  alternatives:\n"
                + "  - {repository: quay.io/acme/foo, weight: 3}\n",
            ImageAlternative.class);

    assertEquals("Sometimes", read.getSpec().rewritePolicy(), "kept for validation to report");
    assertEquals("quay.io/acme/foo", read.getSpec().alternatives().get(0).repository());
  }

  @Test
  void schemaEnumListsExactlyTheDomainsRewritePolicies() {
    ObjectMapper mapper = new ObjectMapper();
    List<String> schemaValues =
        Arrays.stream(RewritePolicyValues.values())
            .map(value -> mapper.<JsonNode>valueToTree(value).asString())
            .toList();
    List<String> domainValues =
        Arrays.stream(RewritePolicy.values()).map(RewritePolicy::value).toList();

    assertEquals(domainValues, schemaValues);
  }
}
