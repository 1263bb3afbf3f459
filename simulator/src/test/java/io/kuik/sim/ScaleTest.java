package io.kuik.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.sim.client.Informer;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.Fixture;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * 1,000 namespaces, 10,000 pods and one simulated day of a few periodic timers. It prints the wall
 * time and the simulated time; timing is a benchmark's business, so nothing is asserted on it.
 */
class ScaleTest {

  @Test
  void aThousandNamespacesTenThousandPodsAndOneSimulatedDay() {
    long wallStart = System.nanoTime(); // measuring the test itself, never read by the simulator
    EventLoop loop = new EventLoop(7);
    ApiServer api = new ApiServer(loop, new Trace(loop.start()));
    Informer pods =
        new Informer(
            api, Fixture.SYNCER, "syncer/pods", ResourceType.POD, null, null, Duration.ofHours(1));
    int[] resynced = {0};
    pods.addHandler(
        new Informer.Handler() {
          @Override
          public void onUpdate(ObjectNode old, ObjectNode now) {
            resynced[0]++;
          }
        });
    pods.start();
    for (int n = 0; n < 1000; n++) {
      api.create(
          Fixture.ADMIN,
          Json.yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: ns-" + n + "}"));
      for (int p = 0; p < 10; p++) {
        api.create(Fixture.ADMIN, Fixture.pod("ns-" + n, "pod-" + p));
      }
    }
    int[] ticks = {0};
    tick(loop, Duration.ofMinutes(1), ticks);
    tick(loop, Duration.ofMinutes(15), ticks);
    loop.runFor(Duration.ofDays(1));

    assertEquals(10_000, pods.list().size());
    assertEquals(24 * 10_000, resynced[0]);
    assertEquals(24 * 60 + 24 * 4, ticks[0]);
    System.out.printf(
        "scale: 1000 namespaces, 10000 pods, simulated %s in %d ms of wall time (%d timers)%n",
        loop.elapsed(), (System.nanoTime() - wallStart) / 1_000_000, loop.fired());
  }

  private static void tick(EventLoop loop, Duration period, int[] ticks) {
    loop.schedule(
        period,
        "tick " + period,
        () -> {
          ticks[0]++;
          tick(loop, period, ticks);
        });
  }
}
