package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * The admission policies and RBAC the simulator enforces are the very objects Helm installs: for
 * each value set, what {@code helm template} renders (with a cluster for {@code lookup}) equals
 * what the simulator's own render installs ({@link ChartFiles#render}, which takes the webhook's
 * TLS from a Secret of the user's and keeps the hooks apart). The selftest's RBAC, a test hook, is
 * compared in {@link SelftestHookTest}.
 */
class SimulatorLoadsWhatHelmRendersTest {

  static final Set<String> ENFORCED_KINDS =
      Set.of(
          "ValidatingAdmissionPolicy",
          "ValidatingAdmissionPolicyBinding",
          "ClusterRole",
          "ClusterRoleBinding",
          "Role",
          "RoleBinding");

  static List<ValueSet> valueSets() {
    return ValueSet.withOptions();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void helmRendersThePolicyAndRbacTheSimulatorLoads(ValueSet values) {
    TreeMap<String, JsonNode> rendered = new TreeMap<>();
    for (JsonNode object : Renders.of(values).all()) {
      if (ENFORCED_KINDS.contains(RenderedManifests.kind(object))) {
        rendered.put(key(object), object);
      }
    }
    ChartFiles chart = ChartFiles.at(Helm.chartDir());
    Release release = values.simulated();
    TreeMap<String, JsonNode> loaded = new TreeMap<>();
    for (JsonNode object : chart.render(release).objects()) {
      if (ENFORCED_KINDS.contains(RenderedManifests.kind(object))) {
        loaded.put(key(object), object);
      }
    }
    assertFalse(loaded.isEmpty());
    assertEquals(new ArrayList<>(loaded.keySet()), new ArrayList<>(rendered.keySet()));
    loaded.forEach(
        (key, object) ->
            assertEquals(
                object, rendered.get(key), key + " differs between Helm and the simulator"));
  }

  @org.junit.jupiter.api.Test
  void theSimulatedWebhookLeavesOutTheNamespacesHelmsWebhookConfigurationLeavesOut() {
    RenderedManifests manifests = Renders.of(ValueSet.DEFAULTS);

    JsonNode configuration = manifests.one("MutatingWebhookConfiguration", "kuik-webhook");

    assertEquals(
        ChartFiles.at(Helm.chartDir())
            .render(ValueSet.DEFAULTS.simulated())
            .ofKind("MutatingWebhookConfiguration")
            .get(0)
            .path("webhooks")
            .path(0)
            .path("namespaceSelector"),
        configuration.path("webhooks").path(0).path("namespaceSelector"));
  }

  @org.junit.jupiter.api.Test
  void withOwnerReferencesPermissionEnforcementHelmRendersTheDeleteGrantTheSimulatorLoads() {
    ValueSet values = ValueSet.DEFAULTS.with("syncer.ownerReferencesPermissionEnforcement=true");
    Release release = new Release(values.release(), values.namespace());
    RenderedManifests manifests = Renders.of(values);

    List<tools.jackson.databind.node.ObjectNode> loaded =
        ChartFiles.at(Helm.chartDir()).load(ChartFiles.SYNCER_OWNER_REFERENCES_RBAC, release);

    assertEquals(2, loaded.size());
    for (JsonNode object : loaded) {
      assertEquals(
          object,
          manifests.one(RenderedManifests.kind(object), RenderedManifests.name(object)),
          key(object) + " differs between Helm and the simulator");
    }
    assertFalse(
        Renders.of(ValueSet.DEFAULTS).all().stream()
            .anyMatch(o -> RenderedManifests.name(o).equals(RenderedManifests.name(loaded.get(0)))),
        "rendered only when the value is set");
  }

  @org.junit.jupiter.api.Test
  void withPullSecretFirstHelmRendersThePodGatesObjectsTheSimulatorLoadsAndTheFlags() {
    ValueSet values =
        ValueSet.DEFAULTS.with("pullSecretFirst.enabled=true").with("pullSecretFirst.maxWait=45s");
    Release release = new Release(values.release(), values.namespace());
    RenderedManifests manifests = Renders.of(values);

    List<tools.jackson.databind.node.ObjectNode> loaded =
        ChartFiles.at(Helm.chartDir()).load(ChartFiles.PULL_SECRET_FIRST, release);

    assertEquals(8, loaded.size());
    for (JsonNode object : loaded) {
      assertEquals(
          object,
          manifests.one(RenderedManifests.kind(object), RenderedManifests.name(object)),
          key(object) + " differs between Helm and the simulator");
    }
    assertFalse(
        Renders.of(ValueSet.DEFAULTS).all().stream()
            .anyMatch(o -> RenderedManifests.name(o).equals("kuik-pod-gates")),
        "rendered only when the value is set");
    String rendered = manifests.all().toString();
    for (String flag :
        List.of("--release-gates=true", "--pull-secret-first=true", "--gate-max-wait=45s")) {
      assertTrue(rendered.contains(flag), flag + " among the Deployments' arguments");
    }
  }

  private static String key(JsonNode object) {
    String namespace = RenderedManifests.namespace(object);
    return RenderedManifests.kind(object)
        + " "
        + (namespace == null || namespace.isEmpty() ? "" : namespace + "/")
        + RenderedManifests.name(object);
  }
}
