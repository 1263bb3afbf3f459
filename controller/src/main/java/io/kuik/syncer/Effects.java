package io.kuik.syncer;

import io.kuik.model.Redactor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The effects one input produces, in order. An Event pays its write token as it is added (into debt
 * if need be, {@link Pacer#owe}): the only write that never waits for one. Every text the core
 * writes (an Event's message, a status) passes the {@link Redactor} of the credentials the core
 * tries, whatever made it (docs/decisions/0060-redaction-as-a-property.md).
 */
final class Effects {

  private final List<Effect> list = new ArrayList<>();
  private final Pacer pacer;
  private final Instant now;
  private final Supplier<Redactor> redactor;

  Effects(Pacer pacer, Instant now, Supplier<Redactor> redactor) {
    this.pacer = pacer;
    this.now = now;
    this.redactor = redactor;
  }

  void add(Effect effect) {
    if (effect instanceof Effect.RecordEvent event) {
      pacer.owe(now);
      effect = event.redacted(redactor.get());
    } else if (effect instanceof Effect.WriteStatus write) {
      RoutingStatus shown = redacted(write.status());
      effect = shown == write.status() ? write : new Effect.WriteStatus(shown);
    }
    list.add(effect);
  }

  /** The status as the writer lets it through: without any form of a credential. */
  RoutingStatus redacted(RoutingStatus status) {
    return status.redacted(redactor.get());
  }

  List<Effect> list() {
    return List.copyOf(list);
  }
}
