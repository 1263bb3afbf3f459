package io.kuik.syncer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The effects one input produces, in order. An Event pays its write token as it is added (into debt
 * if need be, {@link Pacer#owe}): the only write that never waits for one.
 */
final class Effects {

  private final List<Effect> list = new ArrayList<>();
  private final Pacer pacer;
  private final Instant now;

  Effects(Pacer pacer, Instant now) {
    this.pacer = pacer;
    this.now = now;
  }

  void add(Effect effect) {
    if (effect instanceof Effect.RecordEvent) {
      pacer.owe(now);
    }
    list.add(effect);
  }

  List<Effect> list() {
    return List.copyOf(list);
  }
}
