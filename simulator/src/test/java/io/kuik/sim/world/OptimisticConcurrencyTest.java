package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class OptimisticConcurrencyTest {

  private final Fixture f = new Fixture();

  OptimisticConcurrencyTest() {
    f.namespace("team-a");
  }

  @Test
  void aStaleUpdateIsAConflict() {
    ObjectNode v1 = f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "1"));
    ObjectNode v2 = v1.deepCopy();
    v2.withObjectProperty("data").put("k", Fixture.b64("2"));
    f.api.update(ADMIN, v2);
    v1.withObjectProperty("data").put("k", Fixture.b64("3"));
    ApiException e = assertThrows(ApiException.class, () -> f.api.update(ADMIN, v1));
    assertEquals(409, e.code());
    assertEquals(
        "Operation cannot be fulfilled on secrets \"s\": the object has been modified; please"
            + " apply your changes to the latest version and try again",
        e.getMessage());
  }

  @Test
  void anUpdateWithoutResourceVersionIsUnconditional() {
    ObjectNode v1 = f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "1"));
    ObjectNode blind = Fixture.opaque("team-a", "s", "k", "2");
    ObjectNode v2 = f.api.update(ADMIN, blind);
    assertNotEquals(Meta.resourceVersion(v1), Meta.resourceVersion(v2));
    assertEquals(Meta.uid(v1), Meta.uid(v2));
    assertEquals("2", Fixture.decoded(v2, "k"));
  }

  @Test
  void everyWriteAdvancesOneGlobalResourceVersion() {
    ObjectNode a = f.api.create(ADMIN, Fixture.opaque("team-a", "a", "k", "1"));
    ObjectNode b = f.api.create(ADMIN, Fixture.opaque("team-a", "b", "k", "1"));
    ObjectNode deleted = f.api.delete(ADMIN, ResourceType.SECRET, "team-a", "a");
    long ra = Long.parseLong(Meta.resourceVersion(a));
    assertEquals(ra + 1, Long.parseLong(Meta.resourceVersion(b)));
    assertEquals(ra + 2, Long.parseLong(Meta.resourceVersion(deleted)));
  }

  @Test
  void anIdenticalUpdateIsNotWrittenUnlessTheEncryptionKeyChanged() {
    ObjectNode v1 = f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "1"));
    ObjectNode same = f.api.update(ADMIN, v1.deepCopy());
    assertEquals(Meta.resourceVersion(v1), Meta.resourceVersion(same));
    f.api.rotateEncryptionKey();
    ObjectNode rewritten = f.api.update(ADMIN, v1.deepCopy());
    assertNotEquals(Meta.resourceVersion(v1), Meta.resourceVersion(rewritten));
  }

  @Test
  void anUpdateOfAMissingObjectIsNotFound() {
    ApiException e =
        assertThrows(
            ApiException.class,
            () -> f.api.update(ADMIN, Fixture.opaque("team-a", "nope", "k", "1")));
    assertEquals(404, e.code());
    assertEquals("secrets \"nope\" not found", e.getMessage());
  }

  @Test
  void creatingAnExistingNameIsAlreadyExists() {
    f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "1"));
    ApiException e =
        assertThrows(
            ApiException.class, () -> f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "1")));
    assertEquals(409, e.code());
    assertEquals("AlreadyExists", e.reason());
    assertEquals("secrets \"s\" already exists", e.getMessage());
  }

  @Test
  void secretsCarryNoGenerationWhilePodsBumpItOnSpecChanges() {
    ObjectNode secret = f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "1"));
    assertEquals(false, secret.path("metadata").has("generation"));
    ObjectNode pod = f.api.create(ADMIN, Fixture.pod("team-a", "p"));
    assertEquals(1, pod.path("metadata").path("generation").asInt());
    pod.withObjectProperty("metadata").putObject("labels").put("x", "y");
    ObjectNode relabelled = f.api.update(ADMIN, pod);
    assertEquals(1, relabelled.path("metadata").path("generation").asInt());
    ((ObjectNode) relabelled.path("spec").path("containers").get(0)).put("image", "nginx:1.28");
    assertEquals(2, f.api.update(ADMIN, relabelled).path("metadata").path("generation").asInt());
  }
}
