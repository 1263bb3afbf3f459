package io.kuik.syncer;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The condition {@code ProviderCredentialsValid} of a routing resource, a pure function of what
 * each of its injecting provider entries has (docs/behaviour.md#provider-credentials): {@code
 * False} (reason {@code NoValidCredential}) when one has no credential with more than {@code
 * minValidity} left; else {@code Unknown} ({@code NotMintedYet}) while one waits for its first
 * mint; else {@code True}, with reason {@code MintFailing} when the last mint of one failed (its
 * last credential serves until the bound) and {@code CredentialsMinted} otherwise. The message
 * names each entry and when its credential expires. A resource without such an entry has none.
 */
final class ProviderCondition {

  static final String TYPE = "ProviderCredentialsValid";
  static final String MINTED = "CredentialsMinted";
  static final String FAILING = "MintFailing";
  static final String NOT_MINTED = "NotMintedYet";
  static final String NONE_VALID = "NoValidCredential";

  /** One injecting provider entry: its key, provider, what it has, and whether its mint fails. */
  record EntryState(
      String authsKey, String provider, ProviderLookup.Answer answer, boolean failing) {
    EntryState {
      Objects.requireNonNull(authsKey, "authsKey");
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(answer, "answer");
    }
  }

  /** The condition's status, reason and message. */
  record Condition(String status, String reason, String message) {}

  private ProviderCondition() {}

  static Optional<Condition> of(List<EntryState> entries) {
    if (entries.isEmpty()) {
      return Optional.empty();
    }
    boolean missing = false;
    boolean awaiting = false;
    boolean failing = false;
    List<String> lines = new ArrayList<>();
    for (EntryState entry : entries) {
      String line = entry.authsKey() + ": provider " + entry.provider() + ", ";
      if (entry.answer() instanceof ProviderLookup.Usable usable) {
        line += "expires at " + usable.expiresAt();
        if (entry.failing()) {
          failing = true;
          line += " (its last mint failed: it serves until minValidity is left)";
        }
      } else if (entry.answer() instanceof ProviderLookup.Unavailable unavailable) {
        missing = true;
        line += "no credential: " + unavailable.reason();
      } else {
        awaiting = true;
        line += "not minted yet";
      }
      lines.add(line);
    }
    String message = String.join("; ", lines);
    if (message.length() > ResourceStatuses.MESSAGE_MAX) {
      message = message.substring(0, ResourceStatuses.MESSAGE_MAX - 3) + "...";
    }
    if (missing) {
      return Optional.of(new Condition("False", NONE_VALID, message));
    }
    if (awaiting) {
      return Optional.of(new Condition("Unknown", NOT_MINTED, message));
    }
    return Optional.of(new Condition("True", failing ? FAILING : MINTED, message));
  }
}
