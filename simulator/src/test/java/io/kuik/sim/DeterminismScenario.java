package io.kuik.sim;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.client.Informer;
import io.kuik.sim.faults.WatchFaults;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.time.SimRandom;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.DeleteOptions;
import io.kuik.sim.world.Fixture;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.time.Duration;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * One seeded scenario touching every moving part (writes, applies, informers with resync, random
 * watch drops and expiries, the garbage collector, namespace termination); its trace hash must
 * depend on the seed only. Run as a program it prints the hash, for the forked-JVM check.
 */
public final class DeterminismScenario {

  private DeterminismScenario() {}

  public static void main(String[] args) {
    System.out.println(run(Long.parseLong(args[0])));
  }

  public static String run(long seed) {
    EventLoop loop = new EventLoop(seed);
    Trace trace = new Trace(loop.start());
    ApiServer api = new ApiServer(loop, trace);
    SimRandom script = loop.fork("script");
    SimRandom faults = loop.fork("faults");
    trace.alias(Fixture.SYNCER, "syncer");
    ChartFiles.locate().crds().forEach(crd -> api.create(Fixture.ADMIN, crd));

    List<String> namespaces = List.of("team-a", "team-b", "team-c");
    for (String ns : namespaces) {
      api.create(
          Fixture.ADMIN,
          Json.yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}"));
    }
    ObjectNode mirror =
        api.create(
            Fixture.ADMIN,
            Json.yaml(
                "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageMirror\nmetadata: {name: prod}\n"
                    + "spec: {destination: {path: registry.example.com/m/}}"));
    new Informer(
            api,
            Fixture.SYNCER,
            "syncer/secrets",
            ResourceType.SECRET,
            null,
            null,
            Duration.ofMinutes(5))
        .start();
    new Informer(api, Fixture.SYNCER, "syncer/pods", ResourceType.POD, null, null, Duration.ZERO)
        .start();
    WatchFaults.on(api).dropRandomly(WatchFaults.all(), 0.1, faults);

    for (int step = 0; step < 200; step++) {
      String ns = script.pick(namespaces);
      int action = script.nextInt(5);
      Duration pause = Duration.ofMillis(script.nextInt(20_000));
      loop.schedule(pause, "script", () -> act(api, mirror, ns, action, script));
      loop.runFor(pause);
      if (faults.chance(0.05)) {
        api.watches().expire(WatchFaults.all());
      }
    }
    api.delete(Fixture.ADMIN, ResourceType.IMAGE_MIRROR, null, "prod", DeleteOptions.background());
    api.delete(Fixture.ADMIN, ResourceType.NAMESPACE, null, "team-c");
    loop.runFor(Duration.ofHours(1));
    return trace.hash();
  }

  private static void act(ApiServer api, ObjectNode mirror, String ns, int action, SimRandom r) {
    try {
      String name = "s" + r.nextInt(10);
      switch (action) {
        case 0:
          api.create(Fixture.ADMIN, Fixture.pod(ns, "p" + r.nextInt(1000)));
          break;
        case 1:
          ObjectNode s = Fixture.opaque(ns, name, "k", Long.toString(r.nextInt(3)));
          s.withObjectProperty("metadata")
              .putArray("ownerReferences")
              .add(Fixture.ownerRef(mirror));
          api.apply(Fixture.SYNCER, s, "kuik-secret-syncer", true);
          break;
        case 2:
          api.delete(Fixture.ADMIN, ResourceType.SECRET, ns, name);
          break;
        case 3:
          api.create(Fixture.ADMIN, Fixture.opaque(ns, name, "k", "v"));
          break;
        default:
          api.list(Identity.person("alice"), ResourceType.SECRET, ns);
      }
    } catch (ApiException expected) {
      // refusals are part of the history
    }
  }
}
