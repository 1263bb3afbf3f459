package io.kuik.model.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What {@code kubectl get} shows of the routing resources: their rewrite policy and entries as
 * columns, a short name, and the {@code kuik} category, so that {@code kubectl get kuik} lists both
 * kinds.
 */
class CrdReadabilityTest {

  @ParameterizedTest(name = "{0}: short name {1}, columns {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "imagealternatives|imgalt|Age,Repositories,Groups,Policy,Credentials,Reason,Valid,Namespaces",
        "imagemirrors|imgmirror|Age,Destination,Policy,Credentials,Reason,Valid,Namespaces",
      })
  void kubectlGetShowsThePolicyAndTheEntries(String plural, String shortName, String columns)
      throws IOException {
    CustomResourceDefinition crd =
        new KubernetesSerialization()
            .unmarshal(
                Files.readString(
                    Path.of("..", "chart", "files", "crds", plural + ".kuik.enix.io.yaml")),
                CustomResourceDefinition.class);

    assertEquals(List.of(shortName), crd.getSpec().getNames().getShortNames());
    assertEquals(List.of("kuik"), crd.getSpec().getNames().getCategories());
    assertEquals(
        List.of(columns.split(",")),
        crd.getSpec().getVersions().get(0).getAdditionalPrinterColumns().stream()
            .map(CustomResourceColumnDefinition::getName)
            .toList());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"imagealternatives", "imagemirrors"})
  void theStatusIsASubresourceShownAsValidAndNamespacesWithTheReasonInWideOutput(String plural)
      throws IOException {
    CustomResourceDefinition crd =
        new KubernetesSerialization()
            .unmarshal(
                Files.readString(
                    Path.of("..", "chart", "files", "crds", plural + ".kuik.enix.io.yaml")),
                CustomResourceDefinition.class);
    var version = crd.getSpec().getVersions().get(0);
    var columns = version.getAdditionalPrinterColumns();

    assertNotNull(version.getSubresources().getStatus());
    assertEquals(
        List.of(
            ".status.conditions[?(@.type==\"Valid\")].reason:1",
            ".status.conditions[?(@.type==\"Valid\")].status:0",
            ".status.secretNamespaces:0"),
        columns.subList(columns.size() - 3, columns.size()).stream()
            .map(c -> c.getJsonPath() + ":" + c.getPriority())
            .toList());
  }
}
