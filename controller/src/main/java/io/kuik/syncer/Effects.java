package io.kuik.syncer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The effects one input produces, in order. An Event, and the store of a provider credential, pay
 * their write token as they are added (into debt if need be, {@link Pacer#owe}): the only writes
 * that never wait for one.
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
    if (effect instanceof Effect.RecordEvent || effect instanceof Effect.StoreProviderCredential) {
      pacer.owe(now);
    }
    list.add(effect);
  }

  List<Effect> list() {
    return List.copyOf(list);
  }
}
