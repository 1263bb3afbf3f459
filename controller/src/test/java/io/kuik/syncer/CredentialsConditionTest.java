package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.model.TrialVerdict;
import io.kuik.syncer.CredentialsCondition.Condition;
import io.kuik.syncer.CredentialsCondition.EntryOutcome;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The condition CredentialsAccepted, from what the registries said of each entry. */
class CredentialsConditionTest {

  private static EntryOutcome entry(String key, TrialVerdict verdict) {
    return new EntryOutcome(key, key.substring(0, key.indexOf('/')), verdict);
  }

  @Test
  void noInjectingEntryNoCondition() {
    assertEquals(Optional.empty(), CredentialsCondition.of(List.of()));
  }

  @Test
  void everyEntryAcceptedIsTrue() {
    assertEquals(
        Optional.of(
            new Condition(
                "True",
                "CredentialsAccepted",
                "quay.io/acme/app: accepted by quay.io; ghcr.io/acme: accepted by ghcr.io")),
        CredentialsCondition.of(
            List.of(
                entry("quay.io/acme/app", TrialVerdict.accepted("200")),
                entry("ghcr.io/acme", TrialVerdict.accepted("200")))));
  }

  @Test
  void oneRefusalIsFalseAndComesFirstWithTheRegistrysAnswer() {
    Condition condition =
        CredentialsCondition.of(
                List.of(
                    entry("quay.io/acme/app", TrialVerdict.accepted("200")),
                    entry("ghcr.io/acme", TrialVerdict.unreachable("timeout")),
                    entry("registry.example.com/mirror", TrialVerdict.refused("401 UNAUTHORIZED"))))
            .orElseThrow();

    assertEquals("False", condition.status());
    assertEquals("CredentialRefused", condition.reason());
    assertEquals(
        "registry.example.com/mirror: refused by registry.example.com (401 UNAUTHORIZED);"
            + " ghcr.io/acme: ghcr.io did not answer (timeout);"
            + " quay.io/acme/app: accepted by quay.io",
        condition.message());
  }

  @Test
  void unreachableWinsOverNotTriedAndBothAreUnknown() {
    assertEquals(
        "RegistryUnreachable",
        CredentialsCondition.of(
                List.of(
                    entry("quay.io/acme/app", null),
                    entry("ghcr.io/acme", TrialVerdict.unreachable("503"))))
            .orElseThrow()
            .reason());
    Condition untried =
        CredentialsCondition.of(List.of(entry("quay.io/acme/app", null))).orElseThrow();
    assertEquals("Unknown", untried.status());
    assertEquals("NotTriedYet", untried.reason());
    assertEquals("quay.io/acme/app: not tried yet", untried.message());
  }

  @Test
  void aLongMessageIsCutToTheStatusLimit() {
    List<EntryOutcome> many =
        java.util.stream.IntStream.range(0, 64)
            .mapToObj(i -> entry("quay.io/acme/app-" + i, TrialVerdict.refused("x".repeat(200))))
            .toList();

    String message = CredentialsCondition.of(many).orElseThrow().message();

    assertEquals(ResourceStatuses.MESSAGE_MAX, message.length());
  }

  @Test
  void aMessageOfExactly1024CharactersIsKeptWhole() {
    String suffix = ": accepted by quay.io";
    String key = "quay.io/" + "a".repeat(ResourceStatuses.MESSAGE_MAX - suffix.length() - 8);

    Condition condition =
        CredentialsCondition.of(List.of(entry(key, TrialVerdict.accepted("200")))).orElseThrow();

    assertEquals(key + suffix, condition.message());
  }
}
