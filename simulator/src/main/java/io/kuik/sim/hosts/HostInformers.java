package io.kuik.sim.hosts;

import io.kuik.sim.client.Informer;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.LabelSelector;
import java.time.Duration;
import tools.jackson.databind.node.ObjectNode;

/** The informers a hosted component runs under its own identity, feeding one change listener. */
final class HostInformers {

  /** A change of one object: {@code before} null for an add, {@code after} null for a delete. */
  @FunctionalInterface
  interface Listener {
    void changed(ResourceType type, ObjectNode before, ObjectNode after);
  }

  private HostInformers() {}

  /**
   * An informer without resync (the hosts run their own resync timers) feeding {@code listener}.
   */
  static Informer feeding(
      ApiServer api,
      Identity identity,
      String name,
      ResourceType type,
      String namespace,
      Listener listener) {
    return feeding(api, identity, name, type, namespace, LabelSelector.EVERYTHING, listener);
  }

  /** The same, listing and watching only the objects {@code selector} selects, on the server. */
  static Informer feeding(
      ApiServer api,
      Identity identity,
      String name,
      ResourceType type,
      String namespace,
      LabelSelector selector,
      Listener listener) {
    Informer informer = new Informer(api, identity, name, type, namespace, selector, Duration.ZERO);
    informer.addHandler(
        new Informer.Handler() {
          @Override
          public void onAdd(ObjectNode object) {
            listener.changed(type, null, object);
          }

          @Override
          public void onUpdate(ObjectNode old, ObjectNode now) {
            listener.changed(type, old, now);
          }

          @Override
          public void onDelete(ObjectNode last) {
            listener.changed(type, last, null);
          }
        });
    return informer;
  }
}
