package io.kuik.syncer;

import io.kuik.model.Entry;
import io.kuik.model.ProviderCredential;
import io.kuik.model.RegistryCredential;
import java.time.Instant;
import java.util.Objects;

/**
 * The credential a provider entry injects now (docs/behaviour.md#provider-credentials): one with
 * more than the validity bound left, or none, and why. A lookup is bound to the time it was made
 * at; the core makes a new one when a credential crosses the bound.
 */
@FunctionalInterface
interface ProviderLookup {

  /** No provider credential at all: what a core without providers answers. */
  ProviderLookup NONE =
      entry ->
          new Unavailable(
              "provider "
                  + entry.auth().provider()
                  + " is not configured: list it in the chart's providers");

  Answer lookup(Entry entry);

  /**
   * What a process that just started would inject, from the credentials kept in the install
   * namespace alone ({@code kuik explain}'s question): a provider entry with none is minted at run
   * time.
   */
  static ProviderLookup kept(
      io.kuik.ports.InformerView view, SyncerSettings settings, java.time.Instant now) {
    ProviderMints fresh = new ProviderMints(settings, view, new SyncerCounters());
    fresh.readAll();
    return entry -> fresh.lookup(entry, now);
  }

  /** The entries of a resource whose credential a provider mints and that inject it. */
  static java.util.List<Entry> entries(io.kuik.model.RoutingResource resource) {
    return resource.entries().stream()
        .filter(e -> e.injects() && e.auth().provider() != null)
        .toList();
  }

  /** What a provider entry has now. */
  sealed interface Answer permits Usable, Awaiting, Unavailable {}

  /** A credential with more than the bound left, from {@code minted}. */
  record Usable(RegistryCredential credential, ProviderCredential minted) implements Answer {
    public Usable {
      Objects.requireNonNull(credential, "credential");
      Objects.requireNonNull(minted, "minted");
    }

    Instant expiresAt() {
      return minted.expiresAt();
    }
  }

  /** None yet, and nothing went wrong: the first mint is on its way. Not a problem to report. */
  record Awaiting() implements Answer {}

  /** None, and why: a user can act on the reason. */
  record Unavailable(String reason) implements Answer {
    public Unavailable {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
