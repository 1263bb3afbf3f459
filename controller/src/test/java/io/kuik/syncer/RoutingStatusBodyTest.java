package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.Redactor;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A routing resource's status as the syncer writes it: the server-side apply's body holds the
 * conditions in metav1.Condition's shape and the fields this manager owns, each optional part only
 * when there is one; two statuses are the same when they differ only in their transition times; a
 * redacted status shows no form of a credential.
 */
class RoutingStatusBodyTest {

  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final Instant T1 = Instant.parse("2026-01-01T00:00:00Z");
  static final Instant T2 = Instant.parse("2026-01-01T01:00:00Z");

  static final RoutingStatus.Credentials CREDENTIALS =
      new RoutingStatus.Credentials(
          "False",
          "Refused",
          "quay.io refused the credential of entry 0",
          T1,
          List.of(
              new RoutingStatus.Tried("0", "quay.io", "Refused", "401 Unauthorized", T1),
              new RoutingStatus.Tried("1", "ghcr.io", "NotTriedYet", null, null)));

  static final RoutingStatus.Condition PROVIDERS =
      new RoutingStatus.Condition(
          "ProviderCredentialsValid", "True", "Minted", "every provider minted", T1);

  static final RoutingStatus FULL =
      new RoutingStatus(ACME, 3, true, "Valid", "", 2, T1, CREDENTIALS, PROVIDERS);

  @Test
  void aStatusWithoutInjectingEntriesHoldsOnlyTheValidCondition() {
    RoutingStatus invalid = new RoutingStatus(ACME, 2, false, "Invalid", "entry 0: bad", 0, T1);

    assertEquals(
        Map.of(
            "apiVersion",
            RoutingStatus.API_VERSION,
            "kind",
            "ImageAlternative",
            "metadata",
            Map.of("name", "acme"),
            "status",
            Map.of(
                "observedGeneration",
                2L,
                "secretNamespaces",
                0,
                "conditions",
                List.of(conditionAt1("Valid", "False", 2L, "Invalid", "entry 0: bad")))),
        invalid.applyConfiguration());
  }

  @Test
  void injectingEntriesAddTheirConditionsAndEachEntrysAnswerWithoutTheFieldsItHasNot() {
    Map<String, Object> body = FULL.applyConfiguration();

    @SuppressWarnings("unchecked")
    Map<String, Object> status = (Map<String, Object>) body.get("status");
    assertEquals(
        List.of(
            conditionAt1("Valid", "True", 3L, "Valid", ""),
            conditionAt1(
                "CredentialsAccepted",
                "False",
                3L,
                "Refused",
                "quay.io refused the credential of entry 0"),
            conditionAt1(
                "ProviderCredentialsValid", "True", 3L, "Minted", "every provider minted")),
        status.get("conditions"));
    assertEquals(
        List.of(
            Map.of(
                "entry",
                "0",
                "registry",
                "quay.io",
                "outcome",
                "Refused",
                "answer",
                "401 Unauthorized",
                "lastTryTime",
                "2026-01-01T00:00:00Z"),
            Map.of("entry", "1", "registry", "ghcr.io", "outcome", "NotTriedYet")),
        status.get("credentials"));
    assertEquals(2, status.get("secretNamespaces"));
  }

  static Stream<Arguments> changes() {
    return Stream.<Arguments>of(
        Arguments.of("generation", change(s -> with(s, 4, s.valid(), s.reason(), s.message()))),
        Arguments.of("valid", change(s -> with(s, 3, false, s.reason(), s.message()))),
        Arguments.of("reason", change(s -> with(s, 3, true, "Other", s.message()))),
        Arguments.of("message", change(s -> with(s, 3, true, s.reason(), "changed"))),
        Arguments.of(
            "secret namespaces",
            change(
                s ->
                    new RoutingStatus(
                        ACME, 3, true, "Valid", "", 5, T1, s.credentials(), s.providers()))),
        Arguments.of(
            "no credentials",
            change(s -> new RoutingStatus(ACME, 3, true, "Valid", "", 2, T1, null, PROVIDERS))),
        Arguments.of("no providers", change(s -> providers(s, null))),
        Arguments.of(
            "provider type",
            change(
                s -> providers(s, condition("Other", "True", "Minted", "every provider minted")))),
        Arguments.of(
            "provider status",
            change(
                s ->
                    providers(
                        s,
                        condition(
                            "ProviderCredentialsValid",
                            "False",
                            "Minted",
                            "every provider minted")))),
        Arguments.of(
            "provider reason",
            change(
                s ->
                    providers(
                        s,
                        condition(
                            "ProviderCredentialsValid",
                            "True",
                            "Failed",
                            "every provider minted")))),
        Arguments.of(
            "provider message",
            change(
                s ->
                    providers(
                        s,
                        condition("ProviderCredentialsValid", "True", "Minted", "one failed")))));
  }

  private static UnaryOperator<RoutingStatus> change(UnaryOperator<RoutingStatus> change) {
    return change;
  }

  private static RoutingStatus with(
      RoutingStatus s, long generation, boolean valid, String reason, String message) {
    return new RoutingStatus(
        ACME,
        generation,
        valid,
        reason,
        message,
        s.secretNamespaces(),
        T1,
        s.credentials(),
        s.providers());
  }

  private static RoutingStatus providers(RoutingStatus s, RoutingStatus.Condition providers) {
    return new RoutingStatus(ACME, 3, true, "Valid", "", 2, T1, s.credentials(), providers);
  }

  private static RoutingStatus.Condition condition(
      String type, String status, String reason, String message) {
    return new RoutingStatus.Condition(type, status, reason, message, T2);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("changes")
  void aStatusThatDiffersInAnyWrittenFieldIsNotTheSame(
      String field, UnaryOperator<RoutingStatus> change) {
    RoutingStatus changed = change.apply(FULL);

    assertFalse(FULL.sameAs(changed), field);
    assertFalse(changed.sameAs(FULL), field + ", the other way");
  }

  @Test
  void theTransitionTimesAloneDoNotMakeAStatusDifferent() {
    RoutingStatus later =
        new RoutingStatus(
            ACME,
            3,
            true,
            "Valid",
            "",
            2,
            T2,
            new RoutingStatus.Credentials(
                "False",
                "Refused",
                "quay.io refused the credential of entry 0",
                T2,
                CREDENTIALS.entries()),
            condition("ProviderCredentialsValid", "True", "Minted", "every provider minted"));

    assertTrue(FULL.sameAs(later));
    assertFalse(FULL.sameAs(null));
  }

  @Test
  void aRedactedStatusShowsNoFormOfTheCredentialInAnyText() {
    String password = "s3cret-token";
    Redactor redactor = Redactor.of(List.of(RegistryCredential.basic("acme", password)));
    RoutingStatus leaky =
        new RoutingStatus(
            ACME,
            1,
            false,
            "Invalid",
            "entry 0 echoed " + password,
            0,
            T1,
            new RoutingStatus.Credentials(
                "False",
                "Refused",
                "quay.io said " + password,
                T1,
                List.of(new RoutingStatus.Tried("0", "quay.io", "Refused", "bad " + password, T1))),
            condition("ProviderCredentialsValid", "False", "Failed", "plugin said " + password));

    RoutingStatus shown = leaky.redacted(redactor);

    assertFalse(redactor.shows(shown.message()), shown.message());
    assertFalse(redactor.shows(shown.credentials().message()));
    assertFalse(redactor.shows(shown.credentials().entries().get(0).answer()));
    assertFalse(redactor.shows(shown.providers().message()));
    assertEquals("entry 0 echoed " + Redactor.MARK, shown.message());
    assertSame(FULL, FULL.redacted(redactor), "nothing to take out: the same status");
    assertSame(leaky, leaky.redacted(Redactor.none()));
  }

  /** A condition as the apply body holds it, its transition at {@link #T1}. */
  private static Map<String, Object> conditionAt1(
      String type, String status, long generation, String reason, String message) {
    return Map.of(
        "type",
        type,
        "status",
        status,
        "observedGeneration",
        generation,
        "lastTransitionTime",
        T1.toString(),
        "reason",
        reason,
        "message",
        message);
  }
}
