package io.kuik.model;

import java.util.Objects;

/**
 * What a registry made of a {@link CredentialTrial}: accepted, refused (with its answer), or no
 * answer at all. The answer is the registry's own words, cut short, and never holds a credential.
 */
public record TrialVerdict(Outcome outcome, String answer) {

  /** The condition CredentialsAccepted's three states, in the registry's terms. */
  public enum Outcome {
    /** The registry (or its token realm) took the credential for a pull. */
    ACCEPTED,
    /** It refused it: 401 or 403 from the registry or its token realm. */
    REFUSED,
    /** No answer that says either: down, a timeout, a 5xx, a realm kuik may not send it to. */
    UNREACHABLE
  }

  /** An answer is one line of at most this many characters. */
  public static final int ANSWER_MAX = 300;

  public TrialVerdict {
    Objects.requireNonNull(outcome, "outcome");
    answer = oneLine(Objects.requireNonNull(answer, "answer"));
  }

  public static TrialVerdict accepted(String answer) {
    return new TrialVerdict(Outcome.ACCEPTED, answer);
  }

  public static TrialVerdict refused(String answer) {
    return new TrialVerdict(Outcome.REFUSED, answer);
  }

  public static TrialVerdict unreachable(String answer) {
    return new TrialVerdict(Outcome.UNREACHABLE, answer);
  }

  private static String oneLine(String text) {
    String line = text.replaceAll("\\s+", " ").strip();
    return line.length() > ANSWER_MAX ? line.substring(0, ANSWER_MAX - 3) + "..." : line;
  }
}
