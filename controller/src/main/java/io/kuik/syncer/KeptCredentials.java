package io.kuik.syncer;

import io.kuik.model.ProviderCredential;
import io.kuik.model.ProviderSecrets;
import io.kuik.ports.InformerView;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The provider credentials this process knows, one per provider and slot, and their {@code
 * kuik-provider-*} Secrets in the install namespace
 * (docs/decisions/0068-provider-credentials-kept-in-the-install-namespace.md): a credential found
 * there at start is used as it is, without minting again; one minted is stored there (an {@link
 * Effect.StoreProviderCredential}); one that expires is stored again with no auths, so that no
 * expired credential is kept anywhere; one whose Secret someone deleted is stored again.
 */
final class KeptCredentials {

  private static final System.Logger LOG = System.getLogger(KeptCredentials.class.getName());

  /** A provider and slot: what one Secret keeps. */
  record Where(String provider, ProviderCredential.Slot slot) {}

  private static final class Kept {
    ProviderCredential credential;
    boolean stored;

    /** The credential whose store is in flight, if any. */
    ProviderCredential storing;

    Instant storeDue;

    Kept(ProviderCredential credential, boolean stored) {
      this.credential = credential;
      this.stored = stored;
    }
  }

  private final InformerView view;
  private final String namespace;
  private final Duration retry;
  private final Duration leaveBefore;
  private final Map<Where, Kept> kept = new HashMap<>();

  KeptCredentials(InformerView view, String namespace, Duration retry, Duration leaveBefore) {
    this.view = view;
    this.namespace = namespace;
    this.retry = retry;
    this.leaveBefore = leaveBefore;
  }

  /** The credentials kept in the install namespace for {@code provider} and {@code image}. */
  void load(String provider, String image) {
    for (ProviderCredential found : ProviderSecrets.kept(provider, image, view::clusterSecret)) {
      if (found.provider().equals(provider)) {
        kept.putIfAbsent(new Where(provider, found.slot()), new Kept(found, true));
      }
    }
  }

  /** A credential just minted: it serves from now on, and is stored. */
  void minted(ProviderCredential credential) {
    kept.put(new Where(credential.provider(), credential.slot()), new Kept(credential, false));
  }

  /**
   * The credentials that may serve {@code image} for {@code provider}, not expired at {@code now},
   * in the kubelet's order of lookup.
   */
  List<ProviderCredential> serving(String provider, String image, Instant now) {
    List<ProviderCredential> out = new ArrayList<>();
    for (ProviderCredential.Slot slot : ProviderCredential.Slot.of(image)) {
      Kept k = kept.get(new Where(provider, slot));
      if (k != null && !k.credential.auths().isEmpty() && now.isBefore(k.credential.expiresAt())) {
        out.add(k.credential);
      }
    }
    return out;
  }

  /**
   * The stores due at {@code now}: what was minted, and what expired (stored again empty); each is
   * in flight until its answer.
   */
  void due(Instant now, Effects out) {
    for (Kept k : kept.values()) {
      ProviderCredential c = k.credential;
      if (!c.auths().isEmpty() && !now.isBefore(c.expiresAt())) {
        k.credential =
            new ProviderCredential(
                c.provider(), c.slot(), c.configDigest(), Map.of(), c.mintedAt(), c.expiresAt());
        k.stored = false;
      }
      if (!k.stored && k.storing == null && (k.storeDue == null || !now.isBefore(k.storeDue))) {
        k.storing = k.credential;
        out.add(
            new Effect.StoreProviderCredential(
                ProviderSecrets.secret(
                    namespace, k.credential, k.credential.expiresAt().minus(leaveBefore)),
                k.credential));
      }
    }
  }

  /** When the next store falls due, or the next credential expires. */
  Optional<Instant> nextDue(Instant now) {
    Instant next = null;
    for (Kept k : kept.values()) {
      Instant at = null;
      if (!k.stored && k.storing == null) {
        at = k.storeDue == null || k.storeDue.isBefore(now) ? now : k.storeDue;
      } else if (!k.credential.auths().isEmpty()) {
        at = k.credential.expiresAt();
      }
      if (at != null && (next == null || at.isBefore(next))) {
        next = at;
      }
    }
    return Optional.ofNullable(next);
  }

  /** The API server answered a store: taken, or tried again later. */
  void stored(Input.StoreAnswered answered, Instant now) {
    ProviderCredential sent = answered.store().credential();
    Kept k = kept.get(new Where(sent.provider(), sent.slot()));
    if (k == null || k.storing != sent) {
      return; // the answer of a store of an older credential
    }
    k.storing = null;
    if (k.credential != sent) {
      return; // a newer credential came meanwhile: its own store is due
    }
    if (answered.answer() instanceof Answer.Refused refused) {
      k.storeDue = now.plus(retry);
      LOG.log(
          Level.WARNING,
          "keeping the credential of provider {0} ({1}) in {2} was refused ({3} {4}), retry in {5}:"
              + " {6}",
          sent.provider(),
          sent.slot(),
          answered.store().secret().getMetadata().getName(),
          refused.code(),
          refused.reason(),
          retry,
          refused.message());
      return;
    }
    k.stored = true;
    k.storeDue = null;
  }

  /**
   * A Secret of the install namespace changed: one of these, gone from the view while its
   * credential is known, is stored again.
   */
  void secretChanged(String name) {
    if (!name.startsWith(io.kuik.model.SecretNames.PROVIDER_PREFIX)) {
      return;
    }
    for (Map.Entry<Where, Kept> e : kept.entrySet()) {
      Where where = e.getKey();
      if (ProviderSecrets.name(where.provider(), where.slot()).equals(name)
          && view.clusterSecret(name).isEmpty()
          && e.getValue().stored) {
        e.getValue().stored = false;
      }
    }
  }
}
