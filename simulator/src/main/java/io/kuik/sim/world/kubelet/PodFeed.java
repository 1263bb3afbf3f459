package io.kuik.sim.world.kubelet;

import tools.jackson.databind.node.ObjectNode;

/**
 * The pods the kubelet syncs, as a client-side informer on every pod keeps them for it (list, then
 * watch, and list again when the watch expires), the way the real kubelet's API-server pod source
 * does. The world's assembly gives the kubelet one that runs under {@link Kubelet#IDENTITY}, so the
 * kubelet itself builds on nothing above the API server.
 */
public interface PodFeed {

  /** Told of every change of the feed's pods, one at a time, on the event loop. */
  interface Listener {
    void added(ObjectNode pod);

    void updated(ObjectNode pod);

    void deleted(ObjectNode last);
  }

  void listen(Listener listener);

  void start();

  boolean hasSynced();
}
