package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.model.PullSecretsOverride;
import io.kuik.model.ServedNamespaces;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The 18 rows of the namespace-targeting truth table (docs/behaviour.md#namespace-targeting). */
class TargetingTest {

  @ParameterizedTest(name = "override {0}, instance label {1}, by default {2}: served {3}")
  @CsvSource({
    "true,  yes,   true,  yes",
    "true,  yes,   false, yes",
    "true,  no,    true,  yes",
    "true,  no,    false, yes",
    "true,  unset, true,  yes",
    "true,  unset, false, yes",
    "false, yes,   true,  no",
    "false, yes,   false, no",
    "false, no,    true,  no",
    "false, no,    false, no",
    "false, unset, true,  no",
    "false, unset, false, no",
    "unset, yes,   true,  yes",
    "unset, yes,   false, yes",
    "unset, no,    true,  no",
    "unset, no,    false, no",
    "unset, unset, true,  yes",
    "unset, unset, false, no",
  })
  void servesExactlyAsTheTruthTableSays(
      String override, String instanceMatch, boolean byDefault, String served) {
    Map<String, String> labels = new HashMap<>();
    if (!override.equals("unset")) {
      labels.put(PullSecretsOverride.LABEL, override);
    }
    if (instanceMatch.equals("yes")) {
      labels.put(Targeting.INSTANCE_LABEL, "kuik-system");
    } else if (instanceMatch.equals("no")) {
      labels.put(Targeting.INSTANCE_LABEL, "kuik-other");
    }
    var targeting = new Targeting("kuik-system", byDefault);
    assertEquals(served.equals("yes"), targeting.serves("team-a", labels));
  }

  @ParameterizedTest(name = "override value \"{0}\" reads as unset")
  @CsvSource({"yes", "TRUE", "1", "''"})
  void anOverrideThatIsNeitherTrueNorFalseReadsAsUnset(String value) {
    var targeting = new Targeting("kuik-system", false);
    assertEquals(false, targeting.serves("team-a", Map.of(PullSecretsOverride.LABEL, value)));
    assertEquals(
        true,
        targeting.serves(
            "team-a",
            Map.of(PullSecretsOverride.LABEL, value, Targeting.INSTANCE_LABEL, "kuik-system")));
  }

  @ParameterizedTest(name = "{0} is never served, whatever its labels")
  @CsvSource({"kube-system", "kuik-system", "legacy"})
  void aNamespaceKuikDoesNotServeIsServedByNoInstanceWhateverItsLabels(String namespace) {
    var targeting =
        new Targeting("kuik-system", true, ServedNamespaces.parse("kuik-system", "legacy,sandbox"));

    assertEquals(false, targeting.serves(namespace, Map.of()));
    assertEquals(false, targeting.serves(namespace, Map.of(PullSecretsOverride.LABEL, "true")));
    assertEquals(
        false, targeting.serves(namespace, Map.of(Targeting.INSTANCE_LABEL, "kuik-system")));
    assertEquals(true, targeting.serves("team-a", Map.of()));
  }
}
