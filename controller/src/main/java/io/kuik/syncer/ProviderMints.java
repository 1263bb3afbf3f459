package io.kuik.syncer;

import io.kuik.model.CredentialProvider;
import io.kuik.model.Durations;
import io.kuik.model.Entry;
import io.kuik.model.MintResult;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * When each provider credential is minted, and what a provider entry injects now
 * (docs/behaviour.md#provider-credentials,
 * docs/decisions/0066-the-validity-bound-of-provider-credentials.md). One mint per provider and
 * image its injecting entries ask about: at once when there is no credential (none kept in the
 * install namespace, or one minted under another configuration), then at half the credential's
 * validity; after a failure, again with a capped backoff. A credential serves while more than
 * {@code minValidity} plus the write lead is left, so that the write taking it out of every Secret
 * lands before the bound; the last one serves through a failure until then. At most one mint per
 * provider and registry is in flight, so that an answer for the whole registry serves the others.
 * Pure: the core asks what is due and tells what was answered.
 */
final class ProviderMints {

  private static final System.Logger LOG = System.getLogger(ProviderMints.class.getName());

  /** What one mint is for: a provider and the image its plugin is asked about. */
  record Key(String provider, String image) {}

  private static final class Mint {
    final Set<ResourceId> users = new HashSet<>();
    boolean inFlight;
    Instant sentAt;
    Retry retry;
    MintResult.Failed failure;
  }

  private final ProviderSettings settings;
  private final InformerView view;
  private final KeptCredentials kept;
  private final SyncerCounters counters;
  private final Map<Key, Mint> mints = new LinkedHashMap<>();

  /** What each key looked like at the last {@link #changed}: to tell when a lookup changes. */
  private final Map<Key, List<Object>> looked = new LinkedHashMap<>();

  ProviderMints(SyncerSettings settings, InformerView view, SyncerCounters counters) {
    this.settings = settings.providers();
    this.view = view;
    this.counters = counters;
    this.kept =
        new KeptCredentials(
            view,
            settings.clusterResourceNamespace(),
            this.settings.retryBase(),
            this.settings.leaveBefore());
  }

  /** Every resource the view shows, at the start. */
  void readAll() {
    view.routingResources().forEach(r -> read(r.id()));
  }

  /** The resource changed: the provider entries it injects through are read again. */
  void read(ResourceId id) {
    mints.values().forEach(m -> m.users.remove(id));
    view.routingResource(id)
        .filter(Validated.Valid.class::isInstance)
        .map(v -> ((Validated.Valid) v).resource())
        .ifPresent(
            resource -> {
              for (Key key : keys(resource)) {
                mints
                    .computeIfAbsent(
                        key,
                        k -> {
                          kept.load(k.provider(), k.image());
                          return new Mint();
                        })
                    .users
                    .add(id);
              }
            });
    mints.values().removeIf(m -> m.users.isEmpty() && !m.inFlight);
  }

  void forget(ResourceId id) {
    mints.values().forEach(m -> m.users.remove(id));
    mints.values().removeIf(m -> m.users.isEmpty() && !m.inFlight);
  }

  /** A Secret of the install namespace changed: a kept credential's Secret gone is stored again. */
  void secretChanged(String name) {
    kept.secretChanged(name);
  }

  /** What {@code entry}, a provider entry, injects at {@code now}. */
  ProviderLookup.Answer lookup(Entry entry, Instant now) {
    String name = entry.auth().provider();
    Optional<CredentialProvider> provider = settings.provider(name);
    if (provider.isEmpty()) {
      return ProviderLookup.NONE.lookup(entry);
    }
    if (!provider.get().serves(entry.providerImage())) {
      return new ProviderLookup.Unavailable(
          String.format(
              "provider %s does not serve %s: its matchImages are %s",
              name, entry.providerImage(), provider.get().matchImages()));
    }
    Key key = new Key(name, entry.providerImage());
    Optional<ProviderCredential> best = best(key, now);
    Optional<io.kuik.model.RegistryCredential> credential =
        best.flatMap(c -> c.credentialFor(entry.keyringImage()));
    if (best.isPresent() && credential.isPresent() && usable(best.get(), now)) {
      return new ProviderLookup.Usable(credential.get(), best.get());
    }
    Mint mint = mints.get(key);
    if (mint != null && mint.failure != null) {
      return new ProviderLookup.Unavailable(failure(key, mint.failure, now));
    }
    if (best.isPresent()) {
      return new ProviderLookup.Unavailable(
          String.format(
              "the credential of provider %s for %s has less than minValidity (%s) left and no new"
                  + " one has been minted yet",
              name, key.image(), Durations.text(settings.minValidity())));
    }
    return new ProviderLookup.Awaiting();
  }

  /** The mints due at {@code now}, and the stores; each is in flight until its answer. */
  void due(Instant now, Effects out) {
    for (Map.Entry<Key, Mint> e : mints.entrySet()) {
      Instant at = dueAt(e.getKey(), e.getValue(), now);
      if (at != null && !at.isAfter(now) && !registryInFlight(e.getKey())) {
        e.getValue().inFlight = true;
        e.getValue().sentAt = now;
        out.add(
            new Effect.MintCredential(
                settings.providers().get(e.getKey().provider()), e.getKey().image()));
      }
    }
    kept.due(now, out);
  }

  /**
   * The next time something is due: a mint, a store, a credential crossing the bound or expiring. A
   * mint that waits for another of its registry is left out: that one's answer wakes the core.
   */
  Optional<Instant> nextDue(Instant now) {
    Instant next = kept.nextDue(now).orElse(null);
    for (Map.Entry<Key, Mint> e : mints.entrySet()) {
      Instant at = registryInFlight(e.getKey()) ? null : dueAt(e.getKey(), e.getValue(), now);
      Instant bound =
          best(e.getKey(), now).map(this::leavesAt).filter(t -> t.isAfter(now)).orElse(null);
      for (Instant t : new Instant[] {at, bound}) {
        if (t != null && (next == null || t.isBefore(next))) {
          next = t;
        }
      }
    }
    return Optional.ofNullable(next);
  }

  /** The plugin answered: a credential that serves is kept; anything else is a failure. */
  void answered(Input.MintAnswered answered, Instant now) {
    Key key = new Key(answered.mint().provider().name(), answered.mint().image());
    Mint mint = mints.get(key);
    if (mint == null || !mint.inFlight) {
      return;
    }
    mint.inFlight = false;
    MintResult result = answered.result();
    if (result instanceof MintResult.Minted minted) {
      MintAnswers.Judged judged =
          MintAnswers.judge(
              answered.mint().provider(), key.image(), minted.response(), mint.sentAt, settings);
      if (judged.credential() != null) {
        kept.minted(judged.credential());
      } else {
        result = judged.failure();
      }
    }
    if (result instanceof MintResult.Failed failed) {
      if (failed.failure() == MintResult.Failure.UNUSABLE) {
        LOG.log(
            System.Logger.Level.WARNING,
            "provider {0} answered for {1}, but nothing kuik can write: {2}",
            key.provider(),
            key.image(),
            failed.message());
      }
      counters.mintAnswered(key.provider(), failed.failure().label());
      mint.failure = failed;
      mint.retry = Retry.after(mint.retry, now, settings.retryBase(), settings.retryCap());
    } else {
      counters.mintAnswered(key.provider(), "minted");
      mint.failure = null;
      mint.retry = null;
    }
  }

  /** The API server answered the store of a kept credential. */
  void stored(Input.StoreAnswered answered, Instant now) {
    kept.stored(answered, now);
  }

  /**
   * The resources whose provider entries' lookups changed since the last call (a credential minted,
   * a failure, a credential crossing the bound): their Secrets, statuses and trials are due again.
   */
  Set<ResourceId> changed(Instant now) {
    Set<ResourceId> affected = new LinkedHashSet<>();
    looked.keySet().retainAll(mints.keySet());
    for (Map.Entry<Key, Mint> e : mints.entrySet()) {
      Mint mint = e.getValue();
      List<Object> look =
          List.of(
              best(e.getKey(), now).filter(c -> usable(c, now)).map(Object.class::cast).orElse(""),
              mint.failure == null ? "" : mint.failure.message());
      if (!look.equals(looked.put(e.getKey(), look))) {
        affected.addAll(mint.users);
      }
    }
    return affected;
  }

  /**
   * The failures to report on {@code id}, one message each: which mint failed, why, and what serves
   * meanwhile.
   */
  Set<String> failures(ResourceId id, Instant now) {
    Set<String> messages = new LinkedHashSet<>();
    mints.forEach(
        (key, mint) -> {
          if (mint.failure != null && mint.users.contains(id)) {
            messages.add(failure(key, mint.failure, now));
          }
        });
    return messages;
  }

  /** Whether the last mint of the provider entry {@code entry} failed. */
  boolean failing(Entry entry) {
    Mint mint = mints.get(new Key(entry.auth().provider(), entry.providerImage()));
    return mint != null && mint.failure != null;
  }

  /** Each provider's soonest-expiring credential among those serving, for the metric. */
  Map<String, ProviderCredential> serving(Instant now) {
    Map<String, ProviderCredential> soonest = new LinkedHashMap<>();
    for (Key key : mints.keySet()) {
      best(key, now)
          .filter(c -> usable(c, now))
          .ifPresent(
              c ->
                  soonest.merge(
                      key.provider(), c, (a, b) -> a.expiresAt().isBefore(b.expiresAt()) ? a : b));
    }
    return soonest;
  }

  private String failure(Key key, MintResult.Failed failed, Instant now) {
    String serving =
        best(key, now)
            .filter(c -> usable(c, now))
            .map(
                c ->
                    String.format(
                        "the credential minted at %s serves until %s (minValidity %s before its"
                            + " expiry)",
                        c.mintedAt(), leavesAt(c), Durations.text(settings.minValidity())))
            .orElse("no credential with more than minValidity left serves it: it is left out");
    return String.format(
        "provider %s could not mint a credential for %s: %s; %s",
        key.provider(), key.image(), failed.message(), serving);
  }

  /** When the mint of {@code key} is due; null when in flight or not to be minted. */
  private Instant dueAt(Key key, Mint mint, Instant now) {
    CredentialProvider provider = settings.providers().get(key.provider());
    if (mint.inFlight
        || mint.users.isEmpty()
        || provider == null
        || !provider.serves(key.image())) {
      return null;
    }
    Optional<ProviderCredential> best = best(key, now);
    Instant at =
        best.isEmpty() || !best.get().configDigest().equals(provider.configDigest())
            ? now
            : best.get().refreshAt();
    if (mint.retry != null && mint.retry.notBefore().isAfter(at)) {
      at = mint.retry.notBefore();
    }
    return at.isBefore(now) ? now : at;
  }

  private boolean registryInFlight(Key key) {
    String registry = ProviderCredential.Slot.of(key.image()).get(1).key();
    return mints.entrySet().stream()
        .anyMatch(
            e ->
                e.getValue().inFlight
                    && e.getKey().provider().equals(key.provider())
                    && ProviderCredential.Slot.of(e.getKey().image())
                        .get(1)
                        .key()
                        .equals(registry));
  }

  /** The first credential kept for the key that holds one for its image, unexpired. */
  private Optional<ProviderCredential> best(Key key, Instant now) {
    return kept.serving(key.provider(), key.image(), now).stream()
        .filter(c -> c.credentialFor(key.image()).isPresent())
        .findFirst();
  }

  private boolean usable(ProviderCredential credential, Instant now) {
    return now.isBefore(leavesAt(credential));
  }

  /** When a credential leaves every Secret: the bound, less the write lead. */
  private Instant leavesAt(ProviderCredential credential) {
    return credential.expiresAt().minus(settings.leaveBefore());
  }

  /** The provider entries of a resource that inject, as mints. */
  private static Set<Key> keys(RoutingResource resource) {
    Set<Key> keys = new LinkedHashSet<>();
    ProviderLookup.entries(resource)
        .forEach(entry -> keys.add(new Key(entry.auth().provider(), entry.providerImage())));
    return keys;
  }
}
