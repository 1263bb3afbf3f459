package io.kuik.sim.world.watch;

/**
 * Receives a watch's events, one at a time, from the event loop. After {@link #onExpired} (the API
 * server's 410 Gone: the watch is too old) no more events come and the watcher must list again to
 * know the current state.
 */
public interface WatchHandler {

  void onEvent(WatchEvent event);

  void onExpired(String message);
}
