package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static io.kuik.sim.world.Fixture.SYNCER;
import static io.kuik.sim.world.Fixture.b64;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.apply.FieldPath;
import io.kuik.sim.world.apply.ManagedFields;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.watch.WatchEvent;
import io.kuik.sim.world.watch.WatchHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ServerSideApplyTest {

  private final Fixture f = new Fixture();

  ServerSideApplyTest() {
    f.namespace("team-a");
  }

  private static ObjectNode config(String... keyValues) {
    ObjectNode s = Fixture.secret("team-a", "pull", "Opaque");
    ObjectNode data = s.putObject("data");
    for (int i = 0; i < keyValues.length; i += 2) {
      data.put(keyValues[i], b64(keyValues[i + 1]));
    }
    s.withObjectProperty("metadata")
        .putObject("labels")
        .put("app.kubernetes.io/managed-by", "kuik-secret-syncer");
    return s;
  }

  private List<WatchEvent> watchSecrets() {
    List<WatchEvent> events = new ArrayList<>();
    f.api.watch(
        ADMIN,
        ResourceType.SECRET,
        "team-a",
        LabelSelector.EVERYTHING,
        "test",
        new WatchHandler() {
          @Override
          public void onEvent(WatchEvent event) {
            events.add(event);
          }

          @Override
          public void onExpired(String message) {}
        });
    return events;
  }

  @Test
  void applyCreatesTheObjectWhenMissingAndTheManagerOwnsWhatItApplied() {
    ObjectNode created = f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", true);
    assertEquals("Opaque", created.path("type").asString());
    List<ManagedFields.Entry> entries = ManagedFields.read(created);
    assertEquals(1, entries.size());
    assertEquals("Apply", entries.get(0).operation());
    assertTrue(entries.get(0).fields().contains(FieldPath.of("data", "a")));
    assertTrue(
        entries
            .get(0)
            .fields()
            .contains(FieldPath.of("metadata", "labels", "app.kubernetes.io/managed-by")));
    assertEquals(201, f.trace.requests().get(f.trace.requests().size() - 1).code());
  }

  @Test
  void anIdenticalApplyKeepsTheResourceVersionAndSendsNoWatchEvent() {
    ObjectNode first = f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", true);
    List<WatchEvent> events = watchSecrets();
    f.loop.runFor(Duration.ofSeconds(1));
    f.loop.runFor(Duration.ofSeconds(5));
    ObjectNode second = f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", true);
    f.loop.runFor(Duration.ofSeconds(1));
    assertEquals(Meta.resourceVersion(first), Meta.resourceVersion(second));
    assertEquals(
        first.path("metadata").path("managedFields"),
        second.path("metadata").path("managedFields"));
    assertTrue(events.isEmpty(), "no watch event for a no-op apply: " + events);
  }

  @Test
  void aChangedApplyWritesANewResourceVersionAndOneModifiedEvent() {
    ObjectNode first = f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", true);
    List<WatchEvent> events = watchSecrets();
    ObjectNode second = f.api.apply(SYNCER, config("a", "2"), "kuik-secret-syncer", true);
    f.loop.runFor(Duration.ofSeconds(1));
    assertFalse(Meta.resourceVersion(first).equals(Meta.resourceVersion(second)));
    assertEquals(1, events.size());
    assertEquals(WatchEvent.Type.MODIFIED, events.get(0).type());
  }

  @Test
  void applyRemovesFieldsTheManagerNoLongerApplies() {
    f.api.apply(SYNCER, config("a", "1", "b", "2"), "kuik-secret-syncer", true);
    ObjectNode after = f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", true);
    assertTrue(after.path("data").has("a"));
    assertFalse(after.path("data").has("b"));
    assertFalse(ManagedFields.read(after).get(0).fields().contains(FieldPath.of("data", "b")));
  }

  @Test
  void applyKeepsAFieldItNoLongerAppliesWhenAnotherManagerAlsoOwnsIt() {
    f.api.apply(SYNCER, config("a", "1", "b", "2"), "kuik-secret-syncer", true);
    f.api.apply(ADMIN, config("b", "2"), "other", false); // same value: shared ownership
    ObjectNode after = f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", true);
    assertEquals(b64("2"), after.path("data").path("b").asString());
  }

  @Test
  void applyConflictWithoutForceIs409AndNamesTheOtherManager() {
    f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", true);
    ApiException e =
        assertThrows(
            ApiException.class, () -> f.api.apply(ADMIN, config("a", "2"), "kubectl", false));
    assertEquals(409, e.code());
    assertEquals("Conflict", e.reason());
    assertEquals(
        "Apply failed with 1 conflict: conflict with \"kuik-secret-syncer\" using v1: .data.a",
        e.getMessage());
    assertEquals(
        b64("1"), f.get(ResourceType.SECRET, "team-a", "pull").path("data").path("a").asString());
  }

  @Test
  void applyConflictWithForceMovesOwnership() {
    f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", true);
    ObjectNode forced = f.api.apply(ADMIN, config("a", "2"), "kubectl", true);
    assertEquals(b64("2"), forced.path("data").path("a").asString());
    for (ManagedFields.Entry e : ManagedFields.read(forced)) {
      boolean owns = e.fields().contains(FieldPath.of("data", "a"));
      assertEquals(e.manager().equals("kubectl"), owns, e.manager() + " owns .data.a");
    }
  }

  @Test
  void anUpdateTakesOwnershipSoTheApplierConflictsWithTheEditor() {
    ObjectNode applied = f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", true);
    applied.withObjectProperty("data").put("a", b64("edited"));
    f.api.update(ADMIN, applied, "kubectl-edit");
    ApiException e =
        assertThrows(
            ApiException.class,
            () -> f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", false));
    assertTrue(e.getMessage().contains("conflict with \"kubectl-edit\""), e.getMessage());
    ObjectNode restored = f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", true);
    assertEquals(b64("1"), restored.path("data").path("a").asString());
  }

  @Test
  void ownerReferencesMergeByUid() {
    ObjectNode first = config("a", "1");
    first.withObjectProperty("metadata").putArray("ownerReferences").add(ref("u1", "one"));
    f.api.apply(SYNCER, first, "kuik-secret-syncer", true);
    ObjectNode second = config("a", "1");
    second.withObjectProperty("metadata").putArray("ownerReferences").add(ref("u2", "two"));
    ObjectNode merged = f.api.apply(ADMIN, second, "other", false);
    assertEquals(2, merged.path("metadata").path("ownerReferences").size());
  }

  @Test
  void anApplyWithAStaleResourceVersionIsAConflict() {
    ObjectNode first = f.api.apply(SYNCER, config("a", "1"), "kuik-secret-syncer", true);
    f.api.apply(SYNCER, config("a", "2"), "kuik-secret-syncer", true);
    ObjectNode stale = config("a", "3");
    stale.withObjectProperty("metadata").put("resourceVersion", Meta.resourceVersion(first));
    assertEquals(
        409,
        assertThrows(
                ApiException.class, () -> f.api.apply(SYNCER, stale, "kuik-secret-syncer", true))
            .code());
  }

  private static ObjectNode ref(String uid, String name) {
    ObjectNode r = io.kuik.sim.world.object.Json.object();
    r.put("apiVersion", "kuik.enix.io/v1alpha1");
    r.put("kind", "ImageMirror");
    r.put("name", name);
    r.put("uid", uid);
    return r;
  }
}
