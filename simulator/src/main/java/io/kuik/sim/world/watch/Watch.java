package io.kuik.sim.world.watch;

import io.kuik.sim.world.object.LabelSelector;
import java.time.Instant;

/** An open watch. Stopping it (the client hanging up) ends deliveries without a callback. */
public final class Watch {

  private final WatchInfo info;
  private final LabelSelector selector;
  private final WatchHandler handler;
  private boolean active = true;
  private Instant lastDue;
  private WatchEvent held;

  Watch(WatchInfo info, LabelSelector selector, WatchHandler handler) {
    this.info = info;
    this.selector = selector;
    this.handler = handler;
  }

  public WatchInfo info() {
    return info;
  }

  public LabelSelector selector() {
    return selector;
  }

  public boolean active() {
    return active;
  }

  public void stop() {
    active = false;
  }

  WatchHandler handler() {
    return handler;
  }

  void close() {
    active = false;
  }

  Instant lastDue() {
    return lastDue;
  }

  void lastDue(Instant due) {
    this.lastDue = due;
  }

  WatchEvent held() {
    return held;
  }

  void hold(WatchEvent event) {
    this.held = event;
  }
}
