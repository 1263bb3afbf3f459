package io.kuik.sim.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.syncer.SyncerSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class SyncerHostTest {

  static final Identity ADMIN = Identity.person("admin", "system:masters");
  static final Identity SYNCER =
      io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-system", "kuik-secret-syncer");
  static final String SECRET = "kuik-inject-imagealternative-acme-foo";

  private final EventLoop loop = new EventLoop(7);
  private final ApiServer api = new ApiServer(loop, new Trace(loop.now()));

  @Test
  void theHostedSyncerWritesAnAlwaysSecretAndARestartForgetsItsMemory() {
    installAcme();
    SyncerHost host = host();
    host.start();
    loop.runFor(Duration.ofSeconds(5));

    ObjectNode secret = api.get(ADMIN, ResourceType.SECRET, "team-a", SECRET);
    String json =
        new String(
            Base64.getDecoder().decode(Json.text(secret, "data", ".dockerconfigjson")),
            StandardCharsets.UTF_8);
    assertTrue(json.contains("\"quay.io/acme/foo\""), json);
    assertTrue(json.contains("s3cret"), "holds the credential");
    assertEquals("kubernetes.io/dockerconfigjson", Json.text(secret, "type"));

    String resourceVersion = Json.text(secret, "metadata", "resourceVersion");
    host.crash();
    host.start();
    loop.runFor(Duration.ofSeconds(5));
    assertTrue(host.syncer().isPresent());
    long served =
        api.list(ADMIN, ResourceType.NAMESPACE, null).items().stream()
            .map(io.kuik.sim.world.object.Meta::name)
            .filter(ns -> !ns.equals("kube-system") && !ns.equals("kuik-system"))
            .count();
    assertEquals(
        served,
        host.syncer().get().counters().appliesSent(),
        "a new incarnation knows no hash: it applies every pair once, in every namespace kuik"
            + " serves (not kube-system, not its own)");
    ObjectNode again = api.get(ADMIN, ResourceType.SECRET, "team-a", SECRET);
    assertEquals(
        resourceVersion,
        Json.text(again, "metadata", "resourceVersion"),
        "and the API server treats the identical applies as no-ops");
  }

  @Test
  void anApplyLandsHalfARoundTripAfterItIsSentAndItsAnswerComesAfterTheOtherHalf() {
    installAcme();
    SyncerHost host = host();
    host.applyRoundTrip(Duration.ofSeconds(4));
    host.start();
    runUntilTheFirstApplyIsSent(host);

    assertTrue(secretInTeamA().isEmpty(), "on its way");
    loop.runFor(Duration.ofMillis(1_980));
    assertTrue(secretInTeamA().isEmpty(), "on its way");
    loop.runFor(Duration.ofMillis(30));
    assertTrue(secretInTeamA().isPresent(), "landed");
    assertTrue(host.syncer().get().appliesInFlight() > 0, "its answer is on the way back");
    loop.runFor(Duration.ofSeconds(2));
    assertEquals(0, host.syncer().get().appliesInFlight(), "answered");
  }

  @Test
  void aProcessHaltedWhileItsApplyIsOnItsWaySendsNothing() {
    installAcme();
    SyncerHost host = host();
    host.applyRoundTrip(Duration.ofSeconds(4));
    host.start();
    runUntilTheFirstApplyIsSent(host);

    host.crash();
    loop.runFor(Duration.ofSeconds(10));
    assertTrue(secretInTeamA().isEmpty());
  }

  private java.util.Optional<ObjectNode> secretInTeamA() {
    return api.find(ADMIN, ResourceType.SECRET, "team-a", SECRET);
  }

  private SyncerHost host() {
    return new SyncerHost(api, SYNCER, SyncerSettings.defaults("kuik-system"));
  }

  /** Runs in 10 ms steps until the syncer has sent an apply (after its start's debounce). */
  private void runUntilTheFirstApplyIsSent(SyncerHost host) {
    for (int i = 0; i < 200; i++) {
      if (host.syncer().map(s -> s.counters().appliesSent() > 0).orElse(false)) {
        return;
      }
      loop.runFor(Duration.ofMillis(10));
    }
    throw new AssertionError("no apply within 2 s");
  }

  private void installAcme() {
    ChartFiles.locate().crds().forEach(crd -> api.create(ADMIN, crd));
    for (String ns : new String[] {"kuik-system", "team-a"}) {
      api.create(ADMIN, Json.yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}"));
    }
    String config =
        "{\"auths\":{\"quay.io/acme\":{\"username\":\"acme\",\"password\":\"s3cret\"}}}";
    api.create(
        ADMIN,
        Json.yaml(
            "apiVersion: v1\nkind: Secret\nmetadata: {name: acme-pull, namespace: kuik-system}\n"
                + "type: kubernetes.io/dockerconfigjson\nstringData: {.dockerconfigjson: '"
                + config
                + "'}"));
    api.create(
        ADMIN,
        Json.yaml(
            """
            apiVersion: kuik.enix.io/v1alpha1
            kind: ImageAlternative
            metadata: {name: acme-foo}
            spec:
              rewritePolicy: Always
              alternatives:
              - repository: quay.io/acme/foo
                auth: {secretRef: {name: acme-pull}}
            """));
  }
}
