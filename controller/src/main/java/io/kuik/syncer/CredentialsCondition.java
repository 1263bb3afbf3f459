package io.kuik.syncer;

import io.kuik.model.TrialVerdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The condition {@code CredentialsAccepted} of a routing resource, a pure function of what the
 * registries answered for each of its injecting entries (docs/behaviour.md, "Credentials tried
 * ahead of time"): {@code False} when a registry refused one (reason {@code CredentialRefused}),
 * else {@code Unknown} when one could not be tried (reason {@code RegistryUnreachable}) or not yet
 * (reason {@code NotTriedYet}), else {@code True} (reason {@code CredentialsAccepted}). The message
 * names each entry and what its registry said, refusals first. A resource without an injecting
 * entry whose credential resolved has no such condition.
 */
final class CredentialsCondition {

  static final String TYPE = "CredentialsAccepted";
  static final String ACCEPTED = "CredentialsAccepted";
  static final String REFUSED = "CredentialRefused";
  static final String UNREACHABLE = "RegistryUnreachable";
  static final String NOT_TRIED = "NotTriedYet";

  /** One injecting entry, and what its registry answered ({@code null}: not yet). */
  record EntryOutcome(String authsKey, String registry, TrialVerdict verdict) {
    EntryOutcome {
      Objects.requireNonNull(authsKey, "authsKey");
      Objects.requireNonNull(registry, "registry");
    }
  }

  /** The condition's status ({@code True}, {@code False}, {@code Unknown}), reason and message. */
  record Condition(String status, String reason, String message) {}

  private CredentialsCondition() {}

  static Optional<Condition> of(List<EntryOutcome> entries) {
    if (entries.isEmpty()) {
      return Optional.empty();
    }
    List<String> refused = new ArrayList<>();
    List<String> unreachable = new ArrayList<>();
    List<String> untried = new ArrayList<>();
    List<String> accepted = new ArrayList<>();
    for (EntryOutcome entry : entries) {
      TrialVerdict verdict = entry.verdict();
      if (verdict == null) {
        untried.add(entry.authsKey() + ": not tried yet");
        continue;
      }
      switch (verdict.outcome()) {
        case REFUSED ->
            refused.add(
                entry.authsKey()
                    + ": refused by "
                    + entry.registry()
                    + " ("
                    + verdict.answer()
                    + ")");
        case UNREACHABLE ->
            unreachable.add(
                entry.authsKey()
                    + ": "
                    + entry.registry()
                    + " did not answer ("
                    + verdict.answer()
                    + ")");
        case ACCEPTED -> accepted.add(entry.authsKey() + ": accepted by " + entry.registry());
      }
    }
    List<String> lines = new ArrayList<>(refused);
    lines.addAll(unreachable);
    lines.addAll(untried);
    lines.addAll(accepted);
    String message = String.join("; ", lines);
    if (message.length() > ResourceStatuses.MESSAGE_MAX) {
      message = message.substring(0, ResourceStatuses.MESSAGE_MAX - 3) + "...";
    }
    if (!refused.isEmpty()) {
      return Optional.of(new Condition("False", REFUSED, message));
    }
    if (!unreachable.isEmpty()) {
      return Optional.of(new Condition("Unknown", UNREACHABLE, message));
    }
    if (!untried.isEmpty()) {
      return Optional.of(new Condition("Unknown", NOT_TRIED, message));
    }
    return Optional.of(new Condition("True", ACCEPTED, message));
  }
}
