package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.faults.WatchFaults;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.watch.WatchEvent;
import io.kuik.sim.world.watch.WatchHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class WatchTest {

  private final Fixture f = new Fixture();
  private final List<String> seen = new ArrayList<>();

  WatchTest() {
    f.namespace("team-a");
  }

  private void watch(String namespace, LabelSelector selector) {
    f.api.watch(
        ADMIN,
        ResourceType.SECRET,
        namespace,
        selector,
        "w",
        new WatchHandler() {
          @Override
          public void onEvent(WatchEvent event) {
            seen.add(event.type() + " " + Meta.name(event.object()));
          }

          @Override
          public void onExpired(String message) {
            seen.add("EXPIRED");
          }
        });
  }

  @Test
  void eventsArriveThroughTheLoopAfterTheDeliveryDelay() {
    f.api.watches().setDeliveryDelay(Duration.ofMillis(200));
    watch("team-a", LabelSelector.EVERYTHING);
    f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "v"));
    f.loop.runFor(Duration.ofMillis(199));
    assertTrue(seen.isEmpty());
    f.loop.runFor(Duration.ofMillis(1));
    assertEquals(List.of("ADDED s"), seen);
  }

  @Test
  void anObjectLeavingTheSelectionIsDeletedForTheWatcher() {
    watch(null, LabelSelector.parse("tier=prod"));
    ObjectNode s = Fixture.opaque("team-a", "s", "k", "v");
    s.withObjectProperty("metadata").putObject("labels").put("tier", "prod");
    ObjectNode stored = f.api.create(ADMIN, s);
    stored.withObjectProperty("metadata").withObjectProperty("labels").put("tier", "dev");
    stored = f.api.update(ADMIN, stored);
    stored.withObjectProperty("metadata").withObjectProperty("labels").put("tier", "prod");
    f.api.update(ADMIN, stored);
    f.loop.runFor(Duration.ofSeconds(1));
    assertEquals(List.of("ADDED s", "DELETED s", "ADDED s"), seen);
  }

  @Test
  void aDroppedEventIsTracedAndNeverDelivered() {
    watch("team-a", LabelSelector.EVERYTHING);
    WatchFaults.on(f.api).dropNext(WatchFaults.named("w"), 1);
    f.api.create(ADMIN, Fixture.opaque("team-a", "lost", "k", "v"));
    f.api.create(ADMIN, Fixture.opaque("team-a", "kept", "k", "v"));
    f.loop.runFor(Duration.ofSeconds(1));
    assertEquals(List.of("ADDED kept"), seen);
    assertTrue(
        f.trace.records().stream()
            .anyMatch(
                r ->
                    r instanceof TraceRecord.WatchDelivery d
                        && d.fate() == TraceRecord.WatchDelivery.Fate.DROPPED));
  }

  @Test
  void aReorderedEventArrivesAfterTheNextOne() {
    watch("team-a", LabelSelector.EVERYTHING);
    WatchFaults.on(f.api).reorderNext(WatchFaults.all());
    f.api.create(ADMIN, Fixture.opaque("team-a", "first", "k", "v"));
    f.api.create(ADMIN, Fixture.opaque("team-a", "second", "k", "v"));
    f.loop.runFor(Duration.ofSeconds(1));
    assertEquals(List.of("ADDED second", "ADDED first"), seen);
  }

  @Test
  void anExpiredWatchTellsItsWatcherAndDeliversNothingMore() {
    watch("team-a", LabelSelector.EVERYTHING);
    f.api.create(ADMIN, Fixture.opaque("team-a", "before", "k", "v"));
    f.api.watches().expire(WatchFaults.named("w"));
    f.api.create(ADMIN, Fixture.opaque("team-a", "after", "k", "v"));
    f.loop.runFor(Duration.ofSeconds(1));
    assertEquals(List.of("EXPIRED"), seen);
  }
}
