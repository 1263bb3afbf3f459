package io.kuik.sim.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kuik.kube.RoutingInformers;
import io.kuik.kube.syncer.InformerStores;
import io.kuik.kube.syncer.Intake;
import io.kuik.kube.syncer.Notification;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.syncer.Input;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The simulator runs the production syncer's edge and only the transport differs: the same
 * notifications, handed to the production edge as fabric8's informer hands them (its JSON read by
 * fabric8's serialization, the cache updated, then the handler) and to the simulated host's
 * transport (the simulated API server's JSON), give the core the same inputs, one for one.
 */
class SyncerEdgesTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** One change as an informer sees it: {@code after} null for a delete. */
  private record Change(ResourceType type, String key, ObjectNode after) {}

  /** A script covering each kind, each rule of the intake and the start's late list. */
  private static List<Change> script() {
    List<Change> changes = new ArrayList<>();
    changes.add(ns("team-a", "tier: prod", ""));
    changes.add(ns("team-b", "tier: dev", ""));
    changes.add(pod("team-a", "web-1", "Pending", "quay.io/acme/app:1"));
    changes.add(
        routing(
            "acme",
            "spec: {rewritePolicy: Always, alternatives: [{repository: quay.io/acme, auth: {secretRef: {name: acme-pull}}}]}"));
    changes.add(secret("acme-pull", "one"));
    changes.add(null); // the start
    // The start's own list, arriving late: dropped by both.
    changes.add(ns("team-a", "tier: prod", ""));
    changes.add(pod("team-a", "web-1", "Pending", "quay.io/acme/app:1"));
    // What the core reads of them changes, or does not.
    changes.add(pod("team-a", "web-1", "Running", "quay.io/acme/app:1"));
    changes.add(podWithIp("team-a", "web-1", "Running", "quay.io/acme/app:1"));
    changes.add(ns("team-b", "tier: dev", "note: x"));
    changes.add(ns("team-b", "tier: prod", "note: x"));
    changes.add(
        routingStatus(
            "acme",
            "spec: {rewritePolicy: Always, alternatives: [{repository: quay.io/acme, auth: {secretRef: {name: acme-pull}}}]}"));
    changes.add(
        routing(
            "acme",
            "spec: {rewritePolicy: OnFailure, alternatives: [{repository: quay.io/acme, auth: {secretRef: {name: acme-pull}}}]}"));
    changes.add(routing("broken", "spec: {rewritePolicy: Always, alternatives: 'a string'}"));
    changes.add(secret("acme-pull", "two"));
    changes.add(pod("team-b", "api-1", "Running", "quay.io/acme/api:2"));
    changes.add(new Change(ResourceType.POD, "team-a/web-1", null));
    changes.add(new Change(ResourceType.POD, "team-a/never-seen", null));
    changes.add(new Change(ResourceType.SECRET, "kuik-system/acme-pull", null));
    changes.add(new Change(ResourceType.IMAGE_ALTERNATIVE, "broken", null));
    changes.add(new Change(ResourceType.NAMESPACE, "team-b", null));
    changes.add(ns("team-b", "tier: prod", "note: x"));
    return changes;
  }

  @Test
  void bothEdgesGiveTheCoreTheSameInputs() {
    List<Input> production = run(new ProductionTransport());
    List<Input> simulated = run(new SimulatedTransport());

    assertEquals(production, simulated);
    assertEquals(12, production.size(), "inputs: " + production);
    assertTrue(production.get(0) instanceof Input.Started);
  }

  /** How one transport stores a change and hands over its notification. */
  private interface Transport {
    Optional<Notification> stored(InformerStores stores, Change change, ObjectNode before);
  }

  private static List<Input> run(Transport transport) {
    InformerStores stores = new InformerStores("kuik-system");
    Intake intake = new Intake(stores);
    Map<String, ObjectNode> server = new TreeMap<>();
    List<Input> inputs = new ArrayList<>();
    for (Change change : script()) {
      if (change == null) {
        inputs.add(intake.started(T0));
        continue;
      }
      String serverKey = change.type().resource() + "/" + change.key();
      ObjectNode before =
          change.after() == null ? server.remove(serverKey) : server.put(serverKey, change.after());
      if (change.after() == null && before == null) {
        before = Json.object(); // a delete the server never had: an empty last state
        before.putObject("metadata").put("name", change.key().replaceAll(".*/", ""));
        if (change.key().contains("/")) {
          before.withObject("metadata").put("namespace", change.key().replaceAll("/.*", ""));
        }
      }
      transport
          .stored(stores, change, before)
          .flatMap(n -> intake.input(n, T0))
          .ifPresent(inputs::add);
    }
    return inputs;
  }

  /** The simulator's syncer host. */
  private static final class SimulatedTransport implements Transport {
    @Override
    public Optional<Notification> stored(InformerStores stores, Change change, ObjectNode before) {
      return SyncerTransport.stored(stores, change.type(), before, change.after());
    }
  }

  /**
   * The production edge as fabric8's informer drives it: the API server's JSON read by fabric8's
   * serialization, the store updated (an add when it did not hold the object), then the handler
   * ({@code SyncerInformers}), which reads a routing resource with {@link RoutingInformers}.
   */
  private static final class ProductionTransport implements Transport {
    private final KubernetesSerialization serialization = new KubernetesSerialization();

    @Override
    public Optional<Notification> stored(InformerStores stores, Change change, ObjectNode before) {
      ResourceType type = change.type();
      if (type.equals(ResourceType.POD)) {
        Pod[] c = store(stores.podStore(), Pod.class, change);
        return c[0] == null && c[1] == null
            ? Optional.empty()
            : Optional.of(new Notification.PodNotified(c[0], c[1]));
      }
      if (type.equals(ResourceType.NAMESPACE)) {
        Namespace[] c = store(stores.namespaceStore(), Namespace.class, change);
        return c[0] == null && c[1] == null
            ? Optional.empty()
            : Optional.of(new Notification.NamespaceNotified(c[0], c[1]));
      }
      if (type.equals(ResourceType.SECRET)) {
        Secret[] c = store(stores.sourceStore(), Secret.class, change);
        return c[0] == null && c[1] == null
            ? Optional.empty()
            : Optional.of(
                new Notification.SourceNotified(
                    (c[1] != null ? c[1] : c[0]).getMetadata().getName()));
      }
      RoutingKind kind = RoutingKind.IMAGE_ALTERNATIVE;
      ResourceId id = new ResourceId(kind, change.key());
      return Optional.of(
          new Notification.RoutingNotified(
              id,
              change.after() == null
                  ? null
                  : RoutingInformers.validate(
                      kind, read(change.after(), GenericKubernetesResource.class))));
    }

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> T[] store(ItemStore<T> store, Class<T> kind, Change change) {
      T[] c = (T[]) java.lang.reflect.Array.newInstance(kind, 2);
      if (change.after() == null) {
        c[0] = store.remove(change.key());
        return c;
      }
      T object = read(change.after(), kind);
      c[0] = store.put(store.getKey(object), object);
      c[1] = object;
      return c;
    }

    private <T> T read(ObjectNode json, Class<T> kind) {
      return serialization.unmarshal(Json.MAPPER.writeValueAsString(json), kind);
    }
  }

  // ---- objects as the API server sends them ---------------------------------------------------

  private static Change ns(String name, String labels, String annotations) {
    return new Change(
        ResourceType.NAMESPACE,
        name,
        Json.yaml(
            "{apiVersion: v1, kind: Namespace, metadata: {name: "
                + name
                + ", resourceVersion: '1', labels: {"
                + labels
                + "}, annotations: {"
                + annotations
                + "}}, status: {phase: Active}}"));
  }

  private static Change pod(String namespace, String name, String phase, String image) {
    return new Change(
        ResourceType.POD, namespace + "/" + name, podJson(namespace, name, phase, image, ""));
  }

  private static Change podWithIp(String namespace, String name, String phase, String image) {
    return new Change(
        ResourceType.POD,
        namespace + "/" + name,
        podJson(namespace, name, phase, image, ", podIP: 10.0.0.7"));
  }

  private static ObjectNode podJson(
      String namespace, String name, String phase, String image, String status) {
    return Json.yaml(
        "{apiVersion: v1, kind: Pod, metadata: {namespace: "
            + namespace
            + ", name: "
            + name
            + ", resourceVersion: '2', labels: {kuik.enix.io/images-rewritten: 'true'},"
            + " annotations: {kuik.enix.io/rewritten-by: '{\"app\":\"ImageAlternative/acme\"}'}},"
            + " spec: {containers: [{name: app, image: '"
            + image
            + "'}]}, status: {phase: "
            + phase
            + status
            + "}}");
  }

  private static Change routing(String name, String spec) {
    return new Change(
        ResourceType.IMAGE_ALTERNATIVE,
        name,
        Json.yaml(
            "{apiVersion: kuik.enix.io/v1alpha1, kind: ImageAlternative, metadata: {name: "
                + name
                + ", uid: u-"
                + name
                + ", generation: 1}, "
                + spec
                + "}"));
  }

  private static Change routingStatus(String name, String spec) {
    Change change = routing(name, spec);
    change.after().putObject("status").put("secretNamespaces", 1);
    return change;
  }

  private static Change secret(String name, String value) {
    return new Change(
        ResourceType.SECRET,
        "kuik-system/" + name,
        Json.yaml(
            "{apiVersion: v1, kind: Secret, metadata: {namespace: kuik-system, name: "
                + name
                + ", resourceVersion: '3'}, type: Opaque, data: {v: "
                + java.util.Base64.getEncoder().encodeToString(value.getBytes())
                + "}}"));
  }
}
