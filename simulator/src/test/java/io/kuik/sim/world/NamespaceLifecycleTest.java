package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class NamespaceLifecycleTest {

  private final Fixture f = new Fixture().withCrds();

  @Test
  void creatingInAMissingNamespaceIsNotFound() {
    ApiException e =
        assertThrows(
            ApiException.class,
            () -> f.api.create(ADMIN, Fixture.opaque("nowhere", "s", "k", "v")));
    assertEquals(404, e.code());
    assertEquals("namespaces \"nowhere\" not found", e.getMessage());
  }

  @Test
  void creatingInATerminatingNamespaceIsForbidden() {
    f.namespace("team-a");
    f.api.create(ADMIN, Fixture.opaque("team-a", "held", "k", "v"));
    ObjectNode held = f.get(ResourceType.SECRET, "team-a", "held");
    Meta.setFinalizers(held, java.util.List.of("example.com/hold"));
    f.api.update(ADMIN, held);
    ObjectNode ns = f.api.delete(ADMIN, ResourceType.NAMESPACE, null, "team-a");
    assertEquals("Terminating", ns.path("status").path("phase").asString());
    ApiException e =
        assertThrows(
            ApiException.class, () -> f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "v")));
    assertEquals(403, e.code());
    assertEquals(
        "secrets \"s\" is forbidden: unable to create new content in namespace team-a because it"
            + " is being terminated",
        e.getMessage());
  }

  @Test
  void namespaceTerminationDeletesTheContentThenTheNamespace() {
    f.namespace("team-a");
    f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "v"));
    f.api.create(ADMIN, Fixture.pod("team-a", "p"));
    f.api.delete(ADMIN, ResourceType.NAMESPACE, null, "team-a");
    assertTrue(f.api.find(ADMIN, ResourceType.NAMESPACE, null, "team-a").isPresent());
    f.loop.runFor(Duration.ofSeconds(5));
    assertFalse(f.api.find(ADMIN, ResourceType.SECRET, "team-a", "s").isPresent());
    assertFalse(f.api.find(ADMIN, ResourceType.POD, "team-a", "p").isPresent());
    assertFalse(f.api.find(ADMIN, ResourceType.NAMESPACE, null, "team-a").isPresent());
    Actor controller = f.trace.actorOf(Identity.NAMESPACE_CONTROLLER);
    assertTrue(
        f.trace.requests().stream()
            .anyMatch(
                r ->
                    r.actor().equals(controller)
                        && r.kind() == RequestKind.DELETE
                        && r.target().equals(Target.object(Resource.SECRETS, "team-a", "s"))));
  }

  @Test
  void aNamespaceWaitsForContentHeldByAFinalizer() {
    f.namespace("team-a");
    ObjectNode s = Fixture.opaque("team-a", "held", "k", "v");
    s.withObjectProperty("metadata").putArray("finalizers").add("example.com/hold");
    f.api.create(ADMIN, s);
    f.api.delete(ADMIN, ResourceType.NAMESPACE, null, "team-a");
    f.loop.runFor(Duration.ofMinutes(2));
    ObjectNode held = f.get(ResourceType.SECRET, "team-a", "held");
    assertTrue(Meta.deleting(held));
    assertTrue(f.api.find(ADMIN, ResourceType.NAMESPACE, null, "team-a").isPresent());
    Meta.setFinalizers(held, java.util.List.of());
    f.api.update(ADMIN, held);
    f.loop.runFor(Duration.ofMinutes(2));
    assertFalse(f.api.find(ADMIN, ResourceType.NAMESPACE, null, "team-a").isPresent());
  }

  @Test
  void theDefaultNamespaceCannotBeDeleted() {
    ApiException e =
        assertThrows(
            ApiException.class, () -> f.api.delete(ADMIN, ResourceType.NAMESPACE, null, "default"));
    assertEquals(403, e.code());
    assertEquals(
        "namespaces \"default\" is forbidden: this namespace may not be deleted", e.getMessage());
  }

  @Test
  void everyNamespaceCarriesItsNameLabel() {
    ObjectNode ns = f.namespace("team-b");
    assertEquals("team-b", Meta.labels(ns).get("kubernetes.io/metadata.name"));
    assertEquals("Active", ns.path("status").path("phase").asString());
    ns.withObjectProperty("metadata")
        .withObjectProperty("labels")
        .remove("kubernetes.io/metadata.name");
    assertEquals("team-b", Meta.labels(f.api.update(ADMIN, ns)).get("kubernetes.io/metadata.name"));
  }

  @Test
  void eventsAboutAClusterScopedObjectLandInDefault() {
    ObjectNode mirror =
        f.api.create(
            ADMIN,
            Json.yaml(
                "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageMirror\nmetadata: {name: prod}\n"
                    + "spec: {destination: {path: registry.example.com/mirror/}}"));
    ObjectNode event =
        new EventRecorder(f.api, f.loop)
            .record(
                Fixture.SYNCER,
                "kuik-secret-syncer",
                mirror,
                EventRecorder.Type.WARNING,
                "PullSecretInjectionFailed",
                "entry 0: secret missing");
    assertEquals("default", Meta.namespace(event));
    assertEquals("prod", event.path("involvedObject").path("name").asString());
    assertEquals(Meta.uid(mirror), event.path("involvedObject").path("uid").asString());
    assertEquals("Warning", event.path("type").asString());
    assertTrue(
        f.trace.records().stream()
            .anyMatch(
                r ->
                    r instanceof TraceRecord.Request q
                        && q.target().isA(Resource.EVENTS)
                        && "default".equals(q.target().namespace())
                        && q.target().name().startsWith("prod.")));
  }
}
