package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The chart's PrometheusRule and Grafana dashboard: off by default, rendered behind their values,
 * and reading only metrics docs/operations.md documents (a renamed metric would leave an alert that
 * never fires).
 */
class MonitoringChartTest {

  private static final ValueSet MONITORED =
      ValueSet.DEFAULTS.with(
          "monitoring.prometheusRule.enabled=true",
          "monitoring.prometheusRule.labels.release=prometheus",
          "monitoring.prometheusRule.queueWaitSeconds=30",
          "monitoring.grafanaDashboard.enabled=true");
  private static final Pattern METRIC =
      Pattern.compile("\\b(kuik_[a-z_]+|jvm_[a-z_]+|process_[a-z_]+)");

  @Test
  void neitherIsRenderedByDefault() {
    RenderedManifests manifests = Renders.of(ValueSet.DEFAULTS);

    assertTrue(manifests.ofKind("PrometheusRule").isEmpty());
    List<String> configMaps = new ArrayList<>();
    manifests.ofKind("ConfigMap").forEach(c -> configMaps.add(c.at("/metadata/name").asString()));
    assertEquals(List.of("kuik-providers"), configMaps, "the providers' (empty) list alone");
  }

  @Test
  void thePrometheusRuleCarriesTheSevenAlertsWithTheirThresholdsAndLabels() {
    JsonNode rule = Renders.of(MONITORED).ofKind("PrometheusRule").get(0);

    assertEquals("prometheus", rule.at("/metadata/labels/release").asString());
    List<String> alerts = new ArrayList<>();
    rule.at("/spec/groups/0/rules").forEach(r -> alerts.add(r.get("alert").asString()));
    assertEquals(
        List.of(
            "KuikInformersNotSynced",
            "KuikAppliesRefused",
            "KuikQueueWaitHigh",
            "KuikSourcePropagationSlow",
            "KuikWebhookAdmissionSlow",
            "KuikProviderCredentialNotRefreshed",
            "KuikProviderCredentialGone"),
        alerts);
    assertTrue(rule.at("/spec/groups/0/rules/2/expr").asString().endsWith("> 30"));
    assertTrue(
        rule.at("/spec/groups/0/rules/1/expr").asString().contains("namespace=\"kuik\""),
        "scoped to the release's namespace");
  }

  @Test
  void theDashboardIsAConfigMapForGrafanasSidecarHoldingValidJson() {
    JsonNode map = Renders.of(MONITORED).ofKind("ConfigMap").get(0);

    assertEquals("1", map.at("/metadata/labels/grafana_dashboard").asString());
    JsonNode dashboard =
        JsonMapper.builder().build().readTree(map.at("/data/kuik.json").asString());
    assertEquals("kuik-overview", dashboard.get("uid").asString());
    assertTrue(dashboard.get("panels").size() >= 10);
  }

  @Test
  void alertsAndPanelsReadOnlyMetricsTheReadmeDocuments() throws Exception {
    RenderedManifests manifests = Renders.of(MONITORED);
    StringBuilder expressions = new StringBuilder();
    manifests
        .ofKind("PrometheusRule")
        .get(0)
        .at("/spec/groups/0/rules")
        .forEach(r -> expressions.append(r.get("expr").asString()).append('\n'));
    JsonMapper.builder()
        .build()
        .readTree(manifests.ofKind("ConfigMap").get(0).at("/data/kuik.json").asString())
        .get("panels")
        .forEach(p -> p.get("targets").forEach(t -> expressions.append(t.get("expr").asString())));
    String readme =
        Files.readString(Helm.chartDir().resolve("..").resolve("docs").resolve("operations.md"));

    Set<String> undocumented = new TreeSet<>();
    Matcher metric = METRIC.matcher(expressions);
    while (metric.find()) {
      String name = metric.group(1).replaceAll("_(bucket|count|sum)$", "");
      boolean family = name.startsWith("jvm_") || name.startsWith("process_");
      if (!family && !readme.contains("`" + name)) {
        undocumented.add(name);
      }
    }
    assertEquals(Set.of(), undocumented);
  }
}
