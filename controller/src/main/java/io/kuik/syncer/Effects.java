package io.kuik.syncer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The effects one input produces, in order: the core's side of the write gate. An Event pays its
 * write token as it is added (into debt if need be, {@link Pacer#owe}): the only write that never
 * waits for one. While the writes are held (the admission policy that bounds them is away), an
 * Event is kept in {@code held} for the end of the hold, and any other write is a bug: the core
 * decides none then (docs/architecture.md#the-write-gate).
 */
final class Effects {

  private final List<Effect> list = new ArrayList<>();
  private final Pacer pacer;
  private final Instant now;
  private final List<Effect> held;

  /**
   * @param held where Events wait while the writes are held; null while they are not
   */
  Effects(Pacer pacer, Instant now, List<Effect> held) {
    this.pacer = pacer;
    this.now = now;
    this.held = held;
  }

  /** Whether the writes are held: nothing but Events, kept for later, may be added. */
  boolean holding() {
    return held != null;
  }

  void add(Effect effect) {
    if (held != null) {
      if (!(effect instanceof Effect.RecordEvent)) {
        throw new IllegalStateException("a write decided while the writes are held: " + effect);
      }
      if (held.size() < SecretSyncer.HELD_EVENTS) {
        held.add(effect); // later ones are dropped, as a full recorder would
      }
      return;
    }
    if (effect instanceof Effect.RecordEvent) {
      pacer.owe(now);
    }
    list.add(effect);
  }

  List<Effect> list() {
    return List.copyOf(list);
  }
}
