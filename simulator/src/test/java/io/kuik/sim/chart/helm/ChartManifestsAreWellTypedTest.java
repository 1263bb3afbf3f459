package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every object the chart renders, for every tested value set, is a valid object of its Kubernetes
 * type: read strictly into fabric8's model ({@link StrictManifests}), so that a misspelt field in a
 * template fails here instead of vanishing at install.
 */
class ChartManifestsAreWellTypedTest {

  static List<ValueSet> valueSets() {
    return ValueSet.withOptions();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void everyRenderedObjectReadsStrictlyIntoItsType(ValueSet values) {
    List<String> invalid = new ArrayList<>();
    for (JsonNode object : Renders.of(values).all()) {
      try {
        StrictManifests.read(object);
      } catch (AssertionError error) {
        invalid.add(error.getMessage());
      }
    }

    assertEquals(List.of(), invalid);
  }

  @Test
  void aMisspeltFieldIsRefused() {
    ObjectNode deployment =
        (ObjectNode)
            Renders.of(ValueSet.DEFAULTS).one("Deployment", "kuik-secret-syncer").deepCopy();
    ((ObjectNode) ChartRenderTest.container(deployment)).put("imagePullPolicyy", "Always");

    AssertionError refused =
        assertThrows(AssertionError.class, () -> StrictManifests.read(deployment));

    assertTrue(refused.getMessage().contains("imagePullPolicyy"), refused.getMessage());
  }

  @Test
  void aFieldInTheWrongPlaceIsRefused() {
    ObjectNode service =
        (ObjectNode) Renders.of(ValueSet.DEFAULTS).one("Service", "kuik-webhook").deepCopy();
    ((ObjectNode) service.path("spec")).putObject("template");

    AssertionError refused =
        assertThrows(AssertionError.class, () -> StrictManifests.read(service));

    assertTrue(refused.getMessage().contains("template"), refused.getMessage());
  }
}
