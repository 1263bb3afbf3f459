package io.kuik.model.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the committed CRDs promise a cluster, read back from chart/files/crds. */
class RoutingResourceSchemaTest {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "imagealternatives.kuik.enix.io, ImageAlternative",
    "imagemirrors.kuik.enix.io, ImageMirror"
  })
  void isAClusterScopedV1alpha1KindOfKuik(String name, String kind) throws IOException {
    CustomResourceDefinition crd = read(name);

    assertEquals(name, crd.getMetadata().getName());
    assertEquals("kuik.enix.io", crd.getSpec().getGroup());
    assertEquals(kind, crd.getSpec().getNames().getKind());
    assertEquals("Cluster", crd.getSpec().getScope());
    assertEquals(1, crd.getSpec().getVersions().size());
    assertEquals("v1alpha1", crd.getSpec().getVersions().get(0).getName());
    assertTrue(crd.getSpec().getVersions().get(0).getStorage());
    assertEquals(List.of("spec", "status"), schema(crd).getProperties().keySet().stream().toList());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"imagealternatives.kuik.enix.io", "imagemirrors.kuik.enix.io"})
  void defaultsRewritePolicyToOnFailureAndListsItsValues(String name) throws IOException {
    JSONSchemaProps policy =
        schema(read(name)).getProperties().get("spec").getProperties().get("rewritePolicy");

    assertEquals("\"OnFailure\"", SERIALIZATION.asJson(policy.getDefault()));
    assertEquals(
        List.of("\"Always\"", "\"None\"", "\"OnFailure\""),
        policy.getEnum().stream().map(SERIALIZATION::asJson).collect(Collectors.toList()));
  }

  @ParameterizedTest(name = "{0} at {1} refuses: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "imagealternatives.kuik.enix.io|spec|None is only valid on an ImageMirror",
        "imagealternatives.kuik.enix.io|spec|use the same form",
        "imagealternatives.kuik.enix.io|spec.alternatives[]|exactly one of repository or"
            + " repositoryGroup",
        "imagealternatives.kuik.enix.io|spec.alternatives[]|must not have a tag or digest",
        "imagealternatives.kuik.enix.io|spec.alternatives[]|registry host followed by a"
            + " repository path",
        "imagealternatives.kuik.enix.io|spec.alternatives[].auth|exactly one of secretRef or"
            + " provider",
        "imagemirrors.kuik.enix.io|spec.destination|must start with a registry host",
        "imagemirrors.kuik.enix.io|spec.destination|must not have a tag or digest",
        "imagemirrors.kuik.enix.io|spec.destination.pull.auth|exactly one of secretRef or"
            + " provider",
      })
  void refusesInvalidShapesAtAdmission(String name, String at, String message) throws IOException {
    JSONSchemaProps node = schema(read(name));
    for (String step : at.split("\\.")) {
      node =
          step.endsWith("[]")
              ? node.getProperties()
                  .get(step.substring(0, step.length() - 2))
                  .getItems()
                  .getSchema()
              : node.getProperties().get(step);
    }
    List<String> messages =
        node.getXKubernetesValidations().stream()
            .map(ValidationRule::getMessage)
            .collect(Collectors.toList());

    assertTrue(
        messages.stream().anyMatch(m -> m.contains(message)), () -> at + " has rules " + messages);
  }

  private static CustomResourceDefinition read(String name) throws IOException {
    return SERIALIZATION.unmarshal(
        Files.readString(CrdManifests.chartCrds().resolve(name + ".yaml")),
        CustomResourceDefinition.class);
  }

  private static JSONSchemaProps schema(CustomResourceDefinition crd) {
    return crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
  }
}
