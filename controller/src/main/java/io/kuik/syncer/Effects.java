package io.kuik.syncer;

import io.kuik.model.Redactor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The effects one input produces, in order: the core's side of the write gate. An Event, and the
 * store of a provider credential, pay their write token as they are added (into debt if need be,
 * {@link Pacer#owe}): the only writes that never wait for one. While the writes are held (the
 * admission policy that bounds them is away), an Event is kept in {@code held} for the end of the
 * hold, and any other write is a bug: the core decides none then
 * (docs/architecture.md#the-write-gate). Every text the core writes (an Event's message, a status)
 * passes the {@link Redactor} of the credentials the core tries, whatever made it
 * (docs/decisions/0060-redaction-as-a-property.md).
 */
final class Effects {

  private final List<Effect> list = new ArrayList<>();
  private final Pacer pacer;
  private final Instant now;
  private final List<Effect> held;
  private final Supplier<Redactor> redactor;

  /**
   * The statuses {@link #redacted} made, by identity: a status is redacted once. Redacting twice is
   * not a no-op when a credential's form is part of {@link Redactor#MARK} (the password {@code
   * redacted}), and the status written must be the very one the core keeps in flight, or its answer
   * is taken for a stale one and the resource's status is never written again.
   */
  private final Set<RoutingStatus> redactedHere =
      Collections.newSetFromMap(new IdentityHashMap<>());

  /**
   * @param held where Events wait while the writes are held; null while they are not
   * @param redactor the redactor of the credentials the core tries, now
   */
  Effects(Pacer pacer, Instant now, List<Effect> held, Supplier<Redactor> redactor) {
    this.pacer = pacer;
    this.now = now;
    this.held = held;
    this.redactor = redactor;
  }

  /** Whether the writes are held: nothing but Events, kept for later, may be added. */
  boolean holding() {
    return held != null;
  }

  void add(Effect effect) {
    if (held != null) {
      if (!(effect instanceof Effect.RecordEvent event)) {
        throw new IllegalStateException("a write decided while the writes are held: " + effect);
      }
      if (held.size() < SecretSyncer.HELD_EVENTS) {
        held.add(
            event.redacted(redactor.get())); // later ones are dropped, as a full recorder would
      }
      return;
    }
    if (effect instanceof Effect.StoreProviderCredential) {
      pacer.owe(now); // the credential itself: the one write never redacted
    } else if (effect instanceof Effect.RecordEvent event) {
      pacer.owe(now);
      effect = event.redacted(redactor.get());
    } else if (effect instanceof Effect.WriteStatus write
        && !redactedHere.contains(write.status())) {
      RoutingStatus shown = redacted(write.status());
      effect = shown == write.status() ? write : new Effect.WriteStatus(shown);
    }
    list.add(effect);
  }

  /** The status as the writer lets it through: without any form of a credential. */
  RoutingStatus redacted(RoutingStatus status) {
    RoutingStatus shown = status.redacted(redactor.get());
    redactedHere.add(shown);
    return shown;
  }

  List<Effect> list() {
    return List.copyOf(list);
  }
}
