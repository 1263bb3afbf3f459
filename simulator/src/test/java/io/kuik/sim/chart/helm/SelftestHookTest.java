package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.cli.Main;
import io.kuik.selftest.SelftestSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

/**
 * The {@code helm test} hook the chart renders by default: a pod running {@code kuik selftest}, its
 * ServiceAccount and RBAC, all test hooks deleted whatever the outcome, and a command line the CLI
 * parses into the release's own names and Services.
 */
class SelftestHookTest {

  private static final String DELETE_POLICY = "before-hook-creation,hook-succeeded,hook-failed";

  static List<ValueSet> valueSets() {
    return ValueSet.withOptions();
  }

  private static List<JsonNode> selftestObjects(RenderedManifests manifests) {
    return manifests.all().stream()
        .filter(
            o ->
                "selftest"
                    .equals(
                        o.path("metadata")
                            .path("labels")
                            .path("app.kubernetes.io/component")
                            .asString(null)))
        .toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void helmTemplateRendersTheTestPodAndEverythingItNeedsAsTestHooksDeletedWhateverTheOutcome(
      ValueSet values) {
    RenderedManifests manifests = Renders.withHooks(values);
    String release = values.simulated().fullname();

    JsonNode pod = manifests.one("Pod", release + "-selftest");
    manifests.one("ServiceAccount", release + "-selftest");
    manifests.one("ClusterRole", release + "-selftest");
    manifests.one("ClusterRoleBinding", release + "-selftest");
    manifests.one("Role", release + "-selftest");
    manifests.one("RoleBinding", release + "-selftest");
    assertEquals(release + "-selftest", pod.path("spec").path("serviceAccountName").asString());
    assertEquals("Never", pod.path("spec").path("restartPolicy").asString());
    assertEquals(
        "hook-succeeded,hook-failed",
        pod.path("metadata").path("annotations").path("helm.sh/hook-output-log-policy").asString(),
        "Helm prints the report before deleting the pod");
    List<JsonNode> hooks =
        selftestObjects(manifests).stream()
            .filter(o -> o.path("metadata").path("annotations").has(Helm.HOOK_STAND_IN))
            .toList();
    assertEquals(7, hooks.size(), hooks::toString);
    // The policy that keeps the test's identity to dry runs is no hook: it is installed with the
    // release, in force before the identity exists and after a killed test.
    manifests.one("ValidatingAdmissionPolicy", release + "-selftest-dry-run");
    manifests.one("ValidatingAdmissionPolicyBinding", release + "-selftest-dry-run");
    assertEquals(
        2,
        selftestObjects(manifests).size() - hooks.size(),
        "only the policy and its binding are not hooks");
    for (JsonNode object : hooks) {
      JsonNode annotations = object.path("metadata").path("annotations");
      String what = RenderedManifests.kind(object) + " " + RenderedManifests.name(object);
      assertEquals("test", annotations.path(Helm.HOOK_STAND_IN).asString(), what);
      assertEquals(DELETE_POLICY, annotations.path("helm.sh/hook-delete-policy").asString(), what);
      if (!RenderedManifests.kind(object).equals("Pod")) {
        assertEquals(
            "-1",
            annotations.path("helm.sh/hook-weight").asString(),
            what + " exists before the pod that needs it");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void theTestPodsCommandLineNamesTheReleasesObjectsAndItsMetricsServices(ValueSet values) {
    RenderedManifests manifests = Renders.withHooks(values);

    SelftestSettings settings =
        settings(manifests.one("Pod", values.simulated().fullname() + "-selftest"));

    assertEquals(values.release(), settings.release());
    assertEquals(values.namespace(), settings.namespace());
    manifests.one("ValidatingAdmissionPolicyBinding", settings.policyBindingName());
    assertNull(settings.pod(), "no pod check unless asked for");
    manifests.one("ValidatingAdmissionPolicy", settings.policyName());
    manifests.one("Deployment", settings.syncerDeployment());
    manifests.one("Deployment", settings.webhookDeployment());
    if (manifests.ofKind("Service").stream()
        .noneMatch(s -> RenderedManifests.name(s).endsWith("-metrics"))) {
      assertNull(settings.syncerReadyz(), "no metrics Service, no /readyz to ask");
      assertNull(settings.webhookReadyz());
      return;
    }
    for (URI readyz : List.of(settings.syncerReadyz(), settings.webhookReadyz())) {
      String host = readyz.getHost();
      String service = host.substring(0, host.indexOf('.'));
      JsonNode metrics = manifests.one("Service", service);
      assertEquals(values.namespace() + ".svc", host.substring(host.indexOf('.') + 1));
      assertEquals(
          metrics.path("spec").path("ports").get(0).path("port").asInt(), readyz.getPort());
      assertEquals("/readyz", readyz.getPath());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void helmRendersTheSelftestRbacTheSimulatorLoadsForHelmTest(ValueSet values) {
    RenderedManifests manifests = Renders.withHooks(values);

    List<tools.jackson.databind.node.ObjectNode> loaded =
        io.kuik.sim.chart.ChartFiles.at(Helm.chartDir())
            .load(io.kuik.sim.chart.ChartFiles.SELFTEST_RBAC, values.simulated());

    assertEquals(5, loaded.size());
    for (tools.jackson.databind.node.ObjectNode object : loaded) {
      tools.jackson.databind.node.ObjectNode annotations =
          (tools.jackson.databind.node.ObjectNode) object.path("metadata").path("annotations");
      annotations.set(Helm.HOOK_STAND_IN, annotations.remove("helm.sh/hook"));
      assertEquals(
          object,
          manifests.one(RenderedManifests.kind(object), RenderedManifests.name(object)),
          RenderedManifests.kind(object)
              + " "
              + RenderedManifests.name(object)
              + " differs between Helm and the simulator");
    }
  }

  @org.junit.jupiter.api.Test
  void withoutMetricsServicesTheTestAsksNoReadyz() {
    RenderedManifests manifests =
        Renders.withHooks(ValueSet.DEFAULTS.with("metrics.service.enabled=false"));

    SelftestSettings settings = settings(manifests.one("Pod", "kuik-selftest"));

    assertNull(settings.syncerReadyz());
    assertNull(settings.webhookReadyz());
  }

  @org.junit.jupiter.api.Test
  void thePodCheckIsGrantedCreateOnPodsInItsNamespaceOnly() {
    RenderedManifests manifests =
        Renders.withHooks(
            ValueSet.DEFAULTS.with(
                "selftest.podCheck.namespace=team-a",
                "selftest.podCheck.image=quay.io/acme/app:1"));

    SelftestSettings settings = settings(manifests.one("Pod", "kuik-selftest"));
    assertEquals(new SelftestSettings.PodCheck("team-a", "quay.io/acme/app:1"), settings.pod());
    JsonNode binding = manifests.one("RoleBinding", "kuik-selftest-pod-check");
    assertEquals("team-a", RenderedManifests.namespace(binding));
    assertEquals("ClusterRole", binding.path("roleRef").path("kind").asString());
    assertEquals("kuik-selftest-pod-check", binding.path("roleRef").path("name").asString());
    JsonNode role = manifests.one("ClusterRole", "kuik-selftest-pod-check");
    assertEquals(1, role.path("rules").size());
    assertEquals(
        List.of("create"), RenderedManifests.strings(role.path("rules").get(0).path("verbs")));
    assertEquals(
        List.of("pods"), RenderedManifests.strings(role.path("rules").get(0).path("resources")));
    assertFalse(
        Renders.withHooks(ValueSet.DEFAULTS).all().stream()
            .anyMatch(
                o ->
                    RenderedManifests.name(o).equals("kuik-selftest-pod-check")
                        && RenderedManifests.kind(o).equals("RoleBinding")),
        "no binding without a pod check");
  }

  @org.junit.jupiter.api.Test
  void aHalfPodCheckOrOneInANamespaceKuikDoesNotServeIsRefused() {
    Helm.Result half = Helm.template(ValueSet.DEFAULTS.with("selftest.podCheck.namespace=team-a"));
    assertFalse(half.succeeded(), half::toString);
    assertTrue(half.error().contains("needs both namespace and image"), half::toString);

    Helm.Result own =
        Helm.template(
            ValueSet.DEFAULTS.with(
                "selftest.podCheck.namespace=kuik", "selftest.podCheck.image=nginx"));
    assertFalse(own.succeeded(), own::toString);
    assertTrue(own.error().contains("kuik never serves"), own::toString);
    for (ValueSet excluded :
        List.of(
            ValueSet.DEFAULTS.with(
                "selftest.podCheck.namespace=kube-system", "selftest.podCheck.image=nginx"),
            ValueSet.DEFAULTS.with(
                "webhook.excludedNamespaces[0]=legacy",
                "selftest.podCheck.namespace=legacy",
                "selftest.podCheck.image=nginx"))) {
      Helm.Result refused = Helm.template(excluded);
      assertFalse(refused.succeeded(), refused::toString);
      assertTrue(refused.error().contains("kuik never serves"), refused::toString);
    }
  }

  @org.junit.jupiter.api.Test
  void selftestDisabledRendersNoHook() {
    assertEquals(
        List.of(),
        selftestObjects(Renders.withHooks(ValueSet.DEFAULTS.with("selftest.enabled=false"))));
  }

  /** The pod's arguments, parsed by the CLI as the container would run them. */
  private static SelftestSettings settings(JsonNode pod) {
    List<String> args = new ArrayList<>();
    pod.path("spec").path("containers").get(0).path("args").forEach(a -> args.add(a.asString()));
    assertEquals("selftest", args.get(0));
    CommandLine commandLine = Main.commandLine();
    commandLine.parseArgs(args.toArray(String[]::new));
    var command = commandLine.getSubcommands().get("selftest").getCommand();
    return ((io.kuik.cli.SelftestCommand) command).settings();
  }
}
