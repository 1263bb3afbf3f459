package io.kuik.sim.client;

import static io.kuik.sim.world.Fixture.ADMIN;
import static io.kuik.sim.world.Fixture.SYNCER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.faults.WatchFaults;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.world.Fixture;
import io.kuik.sim.world.api.Authorizer;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.Verb;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class InformerTest {

  private final Fixture f = new Fixture();
  private final List<String> seen = new ArrayList<>();

  InformerTest() {
    f.namespace("team-a");
  }

  private Informer informer(Duration resync) {
    Informer informer =
        new Informer(f.api, SYNCER, "syncer/secrets", ResourceType.SECRET, "team-a", null, resync);
    informer.addHandler(
        new Informer.Handler() {
          @Override
          public void onAdd(ObjectNode object) {
            seen.add("add " + Meta.name(object));
          }

          @Override
          public void onUpdate(ObjectNode old, ObjectNode now) {
            seen.add("update " + Meta.name(now));
          }

          @Override
          public void onDelete(ObjectNode last) {
            seen.add("delete " + Meta.name(last));
          }
        });
    informer.start();
    return informer;
  }

  @Test
  void listsThenFollowsTheWatch() {
    f.api.create(ADMIN, Fixture.opaque("team-a", "old", "k", "v"));
    Informer informer = informer(Duration.ZERO);
    f.loop.runFor(Duration.ofSeconds(1));
    assertTrue(informer.hasSynced());
    f.api.create(ADMIN, Fixture.opaque("team-a", "new", "k", "v"));
    f.api.delete(ADMIN, ResourceType.SECRET, "team-a", "old");
    f.loop.runFor(Duration.ofSeconds(1));
    assertEquals(List.of("add old", "add new", "delete old"), seen);
    assertEquals(List.of("new"), informer.list().stream().map(Meta::name).toList());
  }

  @Test
  void aDroppedWatchEventIsFixedByTheRelistAfterExpiry() {
    f.api.create(ADMIN, Fixture.opaque("team-a", "doomed", "k", "v"));
    Informer informer = informer(Duration.ZERO);
    f.loop.runFor(Duration.ofSeconds(1));
    WatchFaults.on(f.api).dropNext(WatchFaults.named("syncer/secrets"), 2);
    f.api.create(ADMIN, Fixture.opaque("team-a", "missed", "k", "v"));
    f.api.delete(ADMIN, ResourceType.SECRET, "team-a", "doomed");
    f.loop.runFor(Duration.ofSeconds(1));
    assertTrue(informer.get("team-a", "missed").isEmpty());
    assertTrue(informer.get("team-a", "doomed").isPresent());

    f.api.watches().expire(WatchFaults.named("syncer/secrets"));
    f.loop.runFor(Duration.ofSeconds(2));
    assertTrue(informer.get("team-a", "missed").isPresent());
    assertFalse(informer.get("team-a", "doomed").isPresent());
    assertTrue(seen.contains("add missed"));
    assertTrue(seen.contains("delete doomed"));
  }

  @Test
  void theResyncRedeliversEveryCachedObjectAsAnUpdate() {
    f.api.create(ADMIN, Fixture.opaque("team-a", "a", "k", "v"));
    f.api.create(ADMIN, Fixture.opaque("team-a", "b", "k", "v"));
    informer(Duration.ofMinutes(10));
    f.loop.runFor(Duration.ofMinutes(1));
    seen.clear();
    f.loop.runFor(Duration.ofMinutes(10));
    assertEquals(List.of("update a", "update b"), seen);
    f.loop.runFor(Duration.ofMinutes(10));
    assertEquals(4, seen.size());
  }

  @Test
  void itsListAndWatchAreAuthorizedAsItsIdentityAndRetriedWhenForbidden() {
    boolean[] allowed = {false};
    f.api.setAuthorizer(
        r ->
            r.identity().equals(SYNCER) && !allowed[0] && r.verb() == Verb.LIST
                ? Authorizer.Decision.deny("")
                : Authorizer.Decision.allow("test"));
    f.api.create(ADMIN, Fixture.opaque("team-a", "a", "k", "v"));
    Informer informer = informer(Duration.ZERO);
    f.loop.runFor(Duration.ofSeconds(5));
    assertFalse(informer.hasSynced());
    assertTrue(
        f.trace.requests().stream().anyMatch(r -> r.kind() == RequestKind.LIST && r.code() == 403));
    allowed[0] = true;
    f.loop.runFor(Duration.ofSeconds(30));
    assertTrue(informer.hasSynced());
    assertEquals(List.of("add a"), seen);
  }
}
