package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The values operators set beside cert-manager's and trust-manager's charts: rollback history,
 * eviction of unhealthy pods, the ServiceMonitor's scrape settings, per-component security
 * contexts, the ServiceAccounts' token and labels; and the JVM's options on its command line. Each
 * reaches its object, and each default renders what Kubernetes would do without it.
 */
class ChartOperationsValuesTest {

  private static final String SYNCER = "kuik-secret-syncer";
  private static final String WEBHOOK = "kuik-webhook";

  private static JsonNode deployment(RenderedManifests manifests, String name) {
    return manifests.one("Deployment", name);
  }

  @Test
  void revisionHistoryLimitIsKubernetesDefaultUnlessSet() {
    RenderedManifests defaults = Renders.of(ValueSet.DEFAULTS);
    RenderedManifests set =
        Renders.of(
            ValueSet.DEFAULTS.with(
                "syncer.revisionHistoryLimit=3", "webhook.revisionHistoryLimit=0"));

    assertAll(
        () ->
            assertTrue(
                deployment(defaults, SYNCER)
                    .path("spec")
                    .path("revisionHistoryLimit")
                    .isMissingNode()),
        () ->
            assertEquals(
                3, deployment(set, SYNCER).path("spec").path("revisionHistoryLimit").asInt()),
        () ->
            assertEquals(
                0, deployment(set, WEBHOOK).path("spec").path("revisionHistoryLimit").asInt(-1)));
  }

  @Test
  void theDisruptionBudgetsTakeTheUnhealthyPodEvictionPolicy() {
    RenderedManifests set =
        Renders.of(
            ValueSet.DEFAULTS.with(
                "syncer.podDisruptionBudget.unhealthyPodEvictionPolicy=AlwaysAllow"));

    assertAll(
        () ->
            assertEquals(
                "AlwaysAllow",
                set.one("PodDisruptionBudget", SYNCER)
                    .path("spec")
                    .path("unhealthyPodEvictionPolicy")
                    .asString()),
        () ->
            assertTrue(
                set.one("PodDisruptionBudget", WEBHOOK)
                    .path("spec")
                    .path("unhealthyPodEvictionPolicy")
                    .isMissingNode(),
                "empty: the API server's default"),
        () ->
            assertFalse(
                Helm.template(
                        ValueSet.DEFAULTS.with(
                            "webhook.podDisruptionBudget.unhealthyPodEvictionPolicy=Sometimes"))
                    .succeeded(),
                "the schema refuses a policy Kubernetes does not know"));
  }

  @Test
  void theServiceMonitorTakesScrapeTimeoutHonorLabelsAndMoreEndpointFields() {
    RenderedManifests set =
        Renders.of(
            ValueSet.DEFAULTS.with(
                "metrics.serviceMonitor.enabled=true",
                "metrics.serviceMonitor.scrapeTimeout=10s",
                "metrics.serviceMonitor.honorLabels=true",
                "metrics.serviceMonitor.endpointAdditionalProperties.metricRelabelings[0].action=drop",
                "metrics.serviceMonitor.endpointAdditionalProperties.metricRelabelings[0].regex=jvm_.*"));
    JsonNode endpoint = set.only("ServiceMonitor").path("spec").path("endpoints").path(0);
    JsonNode byDefault =
        Renders.of(ValueSet.DEFAULTS.with("metrics.serviceMonitor.enabled=true"))
            .only("ServiceMonitor")
            .path("spec")
            .path("endpoints")
            .path(0);

    assertAll(
        () -> assertEquals("10s", endpoint.path("scrapeTimeout").asString()),
        () -> assertTrue(endpoint.path("honorLabels").asBoolean()),
        () ->
            assertEquals(
                "drop", endpoint.path("metricRelabelings").path(0).path("action").asString()),
        () ->
            assertEquals(
                "metrics", endpoint.path("port").asString(), "the chart's own fields stay"),
        () -> assertTrue(byDefault.path("scrapeTimeout").isMissingNode()),
        () -> assertFalse(byDefault.path("honorLabels").asBoolean(true)));
  }

  @Test
  void eachComponentMayReplaceTheSecurityContexts() {
    RenderedManifests set =
        Renders.withHooks(
            ValueSet.DEFAULTS.with(
                "syncer.podSecurityContext.runAsUser=1001",
                "syncer.containerSecurityContext.readOnlyRootFilesystem=true",
                "selftest.containerSecurityContext.runAsUser=1002"));
    JsonNode syncer = deployment(set, SYNCER);
    JsonNode webhook = deployment(set, WEBHOOK);

    assertAll(
        () ->
            assertEquals(
                1001,
                ChartRenderTest.podSpec(syncer).path("securityContext").path("runAsUser").asInt()),
        () ->
            assertTrue(
                ChartRenderTest.podSpec(syncer)
                    .path("securityContext")
                    .path("seccompProfile")
                    .isMissingNode(),
                "replaced, not merged"),
        () ->
            assertEquals(
                65532,
                ChartRenderTest.podSpec(webhook).path("securityContext").path("runAsUser").asInt()),
        () ->
            assertEquals(
                1,
                ChartRenderTest.container(syncer).path("securityContext").size(),
                ChartRenderTest.container(syncer).toString()),
        () ->
            assertEquals(
                "ALL",
                ChartRenderTest.container(webhook)
                    .path("securityContext")
                    .path("capabilities")
                    .path("drop")
                    .path(0)
                    .asString()),
        () ->
            assertEquals(
                1002,
                set.one("Pod", "kuik-selftest")
                    .path("spec")
                    .path("containers")
                    .path(0)
                    .path("securityContext")
                    .path("runAsUser")
                    .asInt()));
  }

  @Test
  void serviceAccountsTakeLabelsAndTheirTokenSettingWhileThePodsKeepTheirs() {
    RenderedManifests set =
        Renders.of(
            ValueSet.DEFAULTS.with(
                "syncer.serviceAccount.automountServiceAccountToken=false",
                "syncer.serviceAccount.labels.team=platform"));
    RenderedManifests defaults = Renders.of(ValueSet.DEFAULTS);
    JsonNode account = set.one("ServiceAccount", "kuik-secret-syncer");

    assertAll(
        () -> assertFalse(account.path("automountServiceAccountToken").asBoolean(true)),
        () ->
            assertEquals(
                "platform", account.path("metadata").path("labels").path("team").asString()),
        () ->
            assertTrue(
                defaults
                    .one("ServiceAccount", "kuik-webhook")
                    .path("automountServiceAccountToken")
                    .asBoolean()),
        () ->
            assertTrue(
                ChartRenderTest.podSpec(deployment(set, SYNCER))
                    .path("automountServiceAccountToken")
                    .asBoolean(false),
                "the syncer talks to the API server: its pods mount their token"),
        () ->
            assertTrue(
                ChartRenderTest.podSpec(deployment(set, WEBHOOK))
                    .path("automountServiceAccountToken")
                    .asBoolean(false)));
  }

  @Test
  void theJvmTakesItsOptionsOnItsCommandLineNotFromTheEnvironment() {
    RenderedManifests set =
        Renders.withHooks(ValueSet.DEFAULTS.with("webhook.jvmOptions=-Xmx100m -Dx=y"));
    List<JsonNode> containers = new ArrayList<>();
    containers.add(ChartRenderTest.container(deployment(set, SYNCER)));
    containers.add(ChartRenderTest.container(deployment(set, WEBHOOK)));
    containers.add(set.one("Pod", "kuik-selftest").path("spec").path("containers").path(0));

    assertEquals(
        List.of("java", "-Xmx100m", "-Dx=y", "-cp", "@/app/jib-classpath-file", "io.kuik.cli.Main"),
        RenderedManifests.strings(containers.get(1).path("command")));
    for (JsonNode container : containers) {
      List<String> command = RenderedManifests.strings(container.path("command"));
      assertAll(
          () -> assertEquals("java", command.get(0)),
          () ->
              assertEquals(
                  List.of("-cp", "@/app/jib-classpath-file", "io.kuik.cli.Main"),
                  command.subList(command.size() - 3, command.size())),
          () ->
              assertFalse(
                  container.path("env").toString().contains("JAVA_TOOL_OPTIONS"),
                  "from JAVA_TOOL_OPTIONS the JVM prints a line before the first JSON one"));
    }
  }
}
