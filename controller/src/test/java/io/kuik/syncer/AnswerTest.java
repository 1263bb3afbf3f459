package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A refusal in the few words a log line and its summary show: the API server's code and reason when
 * it answered, why nothing answered or was sent when it did not.
 */
class AnswerTest {

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource({
    "503, ServiceUnavailable, 503 ServiceUnavailable",
    "422, Invalid, 422 Invalid",
    "0, Transport, no answer from the API server",
    "0, NotLeader, not sent (not the leader)",
    "0, ShuttingDown, not sent (stopping)",
    "0, NoAdmissionPolicy, not sent (NoAdmissionPolicy)",
  })
  void aRefusalSaysInAFewWordsWhoRefusedAndWhy(int code, String reason, String summary) {
    assertEquals(summary, new Answer.Refused(code, reason, "a message").summary());
  }

  @Test
  void onlyAForbiddenCreateInATerminatingNamespaceIsOneRetryingCannotHelp() {
    String terminating =
        "secrets \"s\" is forbidden: unable to create new content in namespace team-a because it"
            + " is being terminated";
    assertTrue(new Answer.Refused(403, "Forbidden", terminating).namespaceTerminating());
    assertFalse(new Answer.Refused(403, "Forbidden", "denied by policy").namespaceTerminating());
    assertFalse(new Answer.Refused(409, "Conflict", terminating).namespaceTerminating());
    assertFalse(new Answer.Refused(403, "Forbidden", null).namespaceTerminating());
  }
}
