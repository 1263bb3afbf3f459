package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.syncer.ProviderCondition.Condition;
import io.kuik.syncer.ProviderCondition.EntryState;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The condition ProviderCredentialsValid, from what each injecting provider entry has. */
class ProviderConditionTest {

  private static final String ECR = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app";

  @Test
  void noProviderEntryNoCondition() {
    assertEquals(Optional.empty(), ProviderCondition.of(List.of()));
  }

  @Test
  void anEntryWaitingForItsFirstMintIsUnknownUnlessAnotherHasNoCredential() {
    EntryState awaiting = new EntryState(ECR, "ecr", new ProviderLookup.Awaiting(), false);
    EntryState missing =
        new EntryState("quay.io/x", "ecr", new ProviderLookup.Unavailable("plugin down"), true);

    assertEquals(
        Optional.of(
            new Condition(
                "Unknown", ProviderCondition.NOT_MINTED, ECR + ": provider ecr, not minted yet")),
        ProviderCondition.of(List.of(awaiting)));
    assertEquals("False", ProviderCondition.of(List.of(awaiting, missing)).orElseThrow().status());
  }

  @Test
  void aMessageOfExactly1024CharactersIsKeptWhole() {
    String suffix = ": provider ecr, not minted yet";
    String key = "a".repeat(ResourceStatuses.MESSAGE_MAX - suffix.length());

    String message =
        ProviderCondition.of(
                List.of(new EntryState(key, "ecr", new ProviderLookup.Awaiting(), false)))
            .orElseThrow()
            .message();

    assertEquals(key + suffix, message);
  }

  @Test
  void aLongerMessageIsCutAt1024CharactersWithAnEllipsis() {
    String key = "a".repeat(ResourceStatuses.MESSAGE_MAX);

    String message =
        ProviderCondition.of(
                List.of(new EntryState(key, "ecr", new ProviderLookup.Awaiting(), false)))
            .orElseThrow()
            .message();

    assertEquals(ResourceStatuses.MESSAGE_MAX, message.length());
    assertEquals("...", message.substring(ResourceStatuses.MESSAGE_MAX - 3));
  }
}
