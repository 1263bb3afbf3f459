package io.kuik.sim.world.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.Verb;
import io.kuik.sim.world.object.Json;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The chart's pod-gates policy (chart/files/pull-secret-first.yaml), as the simulated API server
 * evaluates it: for every identity and every change of a gated pod, whether the write passes. The
 * syncer and the webhook may remove the gate kuik.enix.io/pull-secret and change nothing else;
 * anyone else is not the policy's business (Kubernetes' own rules and RBAC still apply).
 */
class PodGatesPolicyTableTest {

  private static final Release RELEASE = Release.DEFAULT;
  private static final Identity SYNCER =
      io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-system", "kuik-secret-syncer");
  private static final Identity WEBHOOK =
      io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-system", "kuik-webhook");
  private static final Identity TENANT = Identity.person("alice", "team-a-devs");

  private static final PolicyAdmission ADMISSION =
      new PolicyAdmission(
          new InMemoryClusterState()
              .putAll(ChartFiles.locate().load(ChartFiles.PULL_SECRET_FIRST, RELEASE)));

  /** A change of the stored pod and whether kuik's identities may make it. */
  record Change(String name, boolean kuikMay, Consumer<ObjectNode> edit) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static ArrayNode gates(ObjectNode pod) {
    return (ArrayNode) pod.get("spec").get("schedulingGates");
  }

  private static final List<Change> CHANGES =
      List.of(
          new Change("remove its gate", true, pod -> gates(pod).remove(1)),
          new Change("remove another's gate", false, pod -> gates(pod).remove(0)),
          new Change(
              "remove both gates",
              false,
              pod -> {
                gates(pod).remove(1);
                gates(pod).remove(0);
              }),
          new Change("change nothing", false, pod -> {}),
          new Change(
              "remove its gate and change an image",
              false,
              pod -> {
                gates(pod).remove(1);
                ((ObjectNode) pod.get("spec").get("containers").get(0))
                    .put("image", "evil.example/x:1");
              }),
          new Change(
              "remove its gate and add a label",
              false,
              pod -> {
                gates(pod).remove(1);
                ((ObjectNode) pod.get("metadata").get("labels")).put("stolen", "yes");
              }),
          new Change(
              "remove its gate and add an annotation",
              false,
              pod -> {
                gates(pod).remove(1);
                ((ObjectNode) pod.get("metadata")).putObject("annotations").put("stolen", "yes");
              }),
          new Change(
              "remove its gate and add a toleration",
              false,
              pod -> {
                gates(pod).remove(1);
                ((ObjectNode) pod.get("spec"))
                    .putArray("tolerations")
                    .addObject()
                    .put("operator", "Exists");
              }),
          new Change(
              "remove its gate and set a node selector",
              false,
              pod -> {
                gates(pod).remove(1);
                ((ObjectNode) pod.get("spec")).putObject("nodeSelector").put("node", "evil");
              }),
          new Change(
              "remove its gate and add a finalizer",
              false,
              pod -> {
                gates(pod).remove(1);
                ((ObjectNode) pod.get("metadata")).putArray("finalizers").add("example.com/keep");
              }),
          new Change(
              "remove its gate and add an owner reference",
              false,
              pod -> {
                gates(pod).remove(1);
                ((ObjectNode) pod.get("metadata"))
                    .putArray("ownerReferences")
                    .addObject()
                    .put("apiVersion", "v1")
                    .put("kind", "ConfigMap")
                    .put("name", "x")
                    .put("uid", "u");
              }),
          new Change(
              "remove its gate and set an active deadline",
              false,
              pod -> {
                gates(pod).remove(1);
                ((ObjectNode) pod.get("spec")).put("activeDeadlineSeconds", 1);
              }));

  static Stream<Arguments> table() {
    return Stream.of(SYNCER, WEBHOOK, TENANT)
        .flatMap(who -> CHANGES.stream().map(change -> Arguments.of(who.user(), who, change)));
  }

  private static ObjectNode gatedPod() {
    return Json.yaml(
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Pod",
            "metadata:",
            "  name: web-1",
            "  namespace: team-a",
            "  labels: {kuik.enix.io/images-rewritten: 'true'}",
            "spec:",
            "  containers: [{name: app, image: quay.io/acme/app:1}]",
            "  schedulingGates: [{name: example.com/quota}, {name: kuik.enix.io/pull-secret}]"));
  }

  @ParameterizedTest(name = "{0}: {2}")
  @MethodSource("table")
  void onlyKuikIsBoundAndOnlyToRemovingItsGate(String user, Identity who, Change change) {
    ObjectNode before = gatedPod();
    ObjectNode after = before.deepCopy();
    change.edit().accept(after);
    AdmissionRequest request =
        new AdmissionRequest(
            new RequestAttributes(who, Verb.PATCH, ResourceType.POD, "team-a", "web-1", null),
            Operation.UPDATE,
            after,
            before);

    boolean admitted = ADMISSION.validate(request).admitted();

    boolean expected = who == TENANT || change.kuikMay();
    assertEquals(expected, admitted, user + " may " + (expected ? "" : "not ") + change.name());
  }

  /**
   * A token of the syncer's or the webhook's ServiceAccount bound to no pod (a legacy token Secret,
   * or one from kubectl create token) patches no pod, not even to remove the gate.
   */
  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"legacy", "kubectl create token"})
  void aTokenBoundToNoPodRemovesNoGate(String token) {
    Identity unbound =
        token.equals("legacy")
            ? Identity.serviceAccount("kuik-system", "kuik-secret-syncer")
            : Identity.serviceAccountToken("kuik-system", "kuik-webhook", "jti-1");
    ObjectNode before = gatedPod();
    ObjectNode after = before.deepCopy();
    gates(after).remove(1);

    var verdict =
        ADMISSION.validate(
            new AdmissionRequest(
                new RequestAttributes(
                    unbound, Verb.PATCH, ResourceType.POD, "team-a", "web-1", null),
                Operation.UPDATE,
                after,
                before));

    assertEquals(false, verdict.admitted());
    org.junit.jupiter.api.Assertions.assertTrue(
        verdict.message().contains("patches pods only with a token bound to one of its pods"),
        verdict.message());
  }
}
