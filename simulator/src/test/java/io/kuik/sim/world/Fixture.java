package io.kuik.sim.world;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.validation.SecretData;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.node.ObjectNode;

/** A fresh simulated cluster and manifest builders for tests. */
public final class Fixture {

  public static final Identity ADMIN = Identity.person("admin", "system:masters");
  public static final Identity SYNCER =
      io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-system", "kuik-secret-syncer");

  public final EventLoop loop;
  public final Trace trace;
  public final ApiServer api;

  public Fixture() {
    this(42);
  }

  public Fixture(long seed) {
    loop = new EventLoop(seed);
    trace = new Trace(loop.start());
    api = new ApiServer(loop, trace);
  }

  /**
   * The chart's CRDs, without which the API server does not serve ImageAlternatives and
   * ImageMirrors.
   */
  public Fixture withCrds() {
    ChartFiles.locate().crds().forEach(crd -> api.create(ADMIN, crd));
    return this;
  }

  public ObjectNode namespace(String name) {
    return api.create(
        ADMIN, Json.yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + name + "}"));
  }

  public ObjectNode get(ResourceType type, String namespace, String name) {
    return api.get(ADMIN, type, namespace, name);
  }

  public static ObjectNode secret(String namespace, String name, String type) {
    return Json.yaml(
        "apiVersion: v1\nkind: Secret\nmetadata: {name: "
            + name
            + ", namespace: "
            + namespace
            + "}\ntype: "
            + type);
  }

  public static ObjectNode opaque(String namespace, String name, String key, String value) {
    ObjectNode s = secret(namespace, name, "Opaque");
    s.putObject("data").put(key, b64(value));
    return s;
  }

  public static ObjectNode pod(String namespace, String name) {
    return Json.yaml(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: "
            + name
            + ", namespace: "
            + namespace
            + "}\nspec:\n  containers: [{name: app, image: nginx:1.27}]");
  }

  public static String b64(String text) {
    return SecretData.encode(text.getBytes(StandardCharsets.UTF_8));
  }

  public static String decoded(ObjectNode secret, String key) {
    return new String(
        SecretData.decode(secret.path("data").path(key).asString()), StandardCharsets.UTF_8);
  }

  /** An owner reference to {@code owner}. */
  public static ObjectNode ownerRef(ObjectNode owner) {
    ObjectNode ref = Json.object();
    ref.put("apiVersion", owner.path("apiVersion").asString());
    ref.put("kind", owner.path("kind").asString());
    ref.put("name", owner.path("metadata").path("name").asString());
    ref.put("uid", owner.path("metadata").path("uid").asString());
    return ref;
  }
}
