package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.model.WriteBounds.Observed;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link WriteBounds#judge}: the syncer writes only while its policy and binding bound it. */
class WriteBoundsTest {

  private static final String NAME = "kuik-pull-secrets";

  private static Observed policy(String state) {
    return switch (state) {
      case "missing" -> Observed.MISSING;
      case "deleting" -> Observed.policy(true);
      default -> Observed.policy(false);
    };
  }

  private static Observed binding(String state, String binds, String actions) {
    List<String> list = actions.isEmpty() ? List.of() : Arrays.asList(actions.split("\\+"));
    return switch (state) {
      case "missing" -> Observed.MISSING;
      case "deleting" -> Observed.binding(true, binds, list);
      default -> Observed.binding(false, binds, list);
    };
  }

  @ParameterizedTest(name = "policy {0}, binding {1} of {2} with {3}: in place {4}")
  @CsvSource({
    "present, present, kuik-pull-secrets, Deny, true, the ValidatingAdmissionPolicy kuik-pull-secrets and its binding are in place",
    "present, present, kuik-pull-secrets, Deny+Audit, true, the ValidatingAdmissionPolicy kuik-pull-secrets and its binding are in place",
    "missing, present, kuik-pull-secrets, Deny, false, the ValidatingAdmissionPolicy kuik-pull-secrets does not exist",
    "deleting, present, kuik-pull-secrets, Deny, false, the ValidatingAdmissionPolicy kuik-pull-secrets is being deleted",
    "present, missing, '', '', false, the ValidatingAdmissionPolicyBinding kuik-pull-secrets does not exist",
    "missing, missing, '', '', false, the ValidatingAdmissionPolicy kuik-pull-secrets does not exist",
    "present, deleting, kuik-pull-secrets, Deny, false, the ValidatingAdmissionPolicyBinding kuik-pull-secrets is being deleted",
    "present, present, other, Deny, false, 'the ValidatingAdmissionPolicyBinding kuik-pull-secrets binds other, not kuik-pull-secrets'",
    "present, present, kuik-pull-secrets, Warn+Audit, false, the ValidatingAdmissionPolicyBinding kuik-pull-secrets only Warn and Audits: it must Deny",
  })
  void theSyncerWritesOnlyWhileBothAreInPlaceAndTheBindingDenies(
      String policy, String binding, String binds, String actions, boolean inPlace, String why) {
    WriteBounds bounds =
        WriteBounds.judge(NAME, policy(policy), NAME, binding(binding, binds, actions));

    assertEquals(new WriteBounds(inPlace, why), bounds);
  }
}
