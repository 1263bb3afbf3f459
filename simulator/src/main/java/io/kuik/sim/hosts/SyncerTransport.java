package io.kuik.sim.hosts;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.kuik.kube.syncer.InformerStores;
import io.kuik.kube.syncer.Notification;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResourceJson;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the simulated syncer's informers hand over, made into the {@link Notification} fabric8's
 * informer would hand the production syncer: the object read from the simulated API server's JSON
 * into fabric8's model, stored in the production {@link InformerStores} first (an add when the
 * store did not hold it, else an update whose before is what the store held), as fabric8's informer
 * does. The transport is the only part of the syncer's edge the simulator has of its own.
 */
final class SyncerTransport {

  private SyncerTransport() {}

  /**
   * Stores the change and returns what the syncer's informer would announce: nothing for the delete
   * of an object the store did not hold, as fabric8's.
   */
  static Optional<Notification> stored(
      InformerStores stores, ResourceType type, ObjectNode before, ObjectNode after) {
    ObjectNode any = after != null ? after : before;
    if (type.equals(ResourceType.POD)) {
      Pod[] change = store(stores.podStore(), Pod.class, any, after);
      return unknownDelete(change)
          ? Optional.empty()
          : Optional.of(new Notification.PodNotified(change[0], change[1]));
    }
    if (type.equals(ResourceType.NAMESPACE)) {
      Namespace[] change = store(stores.namespaceStore(), Namespace.class, any, after);
      return unknownDelete(change)
          ? Optional.empty()
          : Optional.of(new Notification.NamespaceNotified(change[0], change[1]));
    }
    if (type.equals(ResourceType.SECRET)) {
      Secret[] change = store(stores.sourceStore(), Secret.class, any, after);
      return unknownDelete(change)
          ? Optional.empty()
          : Optional.of(new Notification.SourceNotified(Meta.name(any)));
    }
    RoutingKind kind =
        type.equals(ResourceType.IMAGE_ALTERNATIVE)
            ? RoutingKind.IMAGE_ALTERNATIVE
            : RoutingKind.IMAGE_MIRROR;
    ResourceId id = new ResourceId(kind, Meta.name(any));
    // Read leniently, as the production informers do: a malformed object is an invalid resource.
    return Optional.of(
        new Notification.RoutingNotified(
            id, after == null ? null : RoutingResourceJson.validate(kind, after)));
  }

  private static boolean unknownDelete(Object[] change) {
    return change[0] == null && change[1] == null;
  }

  /** {before, after} as the informer's handler gets them, once {@code store} holds the change. */
  @SuppressWarnings("unchecked")
  private static <T extends HasMetadata> T[] store(
      ItemStore<T> store, Class<T> kind, ObjectNode any, ObjectNode after) {
    T[] change = (T[]) java.lang.reflect.Array.newInstance(kind, 2);
    if (after == null) {
      change[0] = store.remove(key(any));
      return change;
    }
    T object = Json.MAPPER.treeToValue(after, kind);
    change[0] = store.put(store.getKey(object), object);
    change[1] = object;
    return change;
  }

  private static String key(ObjectNode object) {
    String namespace = Meta.namespace(object);
    return namespace == null || namespace.isEmpty()
        ? Meta.name(object)
        : namespace + "/" + Meta.name(object);
  }
}
