package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * The values a platform team expects of a chart beyond kuik's own settings: numbers given with
 * {@code --set}, extra volumes and arguments, names and labels of their own, extra manifests, a
 * NetworkPolicy, and an alert that fires before the webhook's timeout matters. Each is rendered by
 * Helm with {@code --set}, as an operator would pass it.
 */
class ChartExtrasTest {

  // ---- numbers with --set ----------------------------------------------------------------------

  /**
   * {@code --set} types an integer, never a decimal: {@code --set syncer.resyncShare=0.3} gives the
   * string "0.3", which a schema of type number alone refused.
   */
  @ParameterizedTest(name = "--set {0} gives {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "syncer.resyncShare=0.3 | secret-syncer | --resync-share=0.3",
        "syncer.resyncShare=1   | secret-syncer | --resync-share=1",
        "syncer.api.qps=2.5     | secret-syncer | --api-qps=2.5",
        "syncer.api.qps=100     | secret-syncer | --api-qps=100",
      })
  void decimalsGivenWithSetAreAccepted(String set, String component, String flag) {
    JsonNode deployment =
        Renders.of(ValueSet.DEFAULTS.with(set)).one("Deployment", "kuik-" + component);

    assertTrue(
        ChartRenderTest.args(deployment).contains(flag),
        () -> ChartRenderTest.args(deployment).toString());
  }

  @Test
  void alertThresholdsGivenWithSetAreAccepted() {
    JsonNode rule =
        Renders.of(
                ValueSet.DEFAULTS.with(
                    "monitoring.prometheusRule.enabled=true",
                    "monitoring.prometheusRule.admissionSeconds=1.5",
                    "monitoring.prometheusRule.queueWaitSeconds=0.5"))
            .only("PrometheusRule");

    assertTrue(rule.at("/spec/groups/0/rules/4/expr").asString().endsWith("> 1.5"));
    assertTrue(rule.at("/spec/groups/0/rules/2/expr").asString().endsWith("> 0.5"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "syncer.resources.requests.cpu=0.5",
    "syncer.resources.requests.cpu=250m",
    "syncer.resources.limits.memory=1Gi",
    "webhook.resources.limits.memory=536870912",
    "syncer.podDisruptionBudget.minAvailable=50%",
    "webhook.podDisruptionBudget.maxUnavailable=0",
    "syncer.gracePeriod=90s",
  })
  void quantitiesPercentagesAndDurationsInTheirFormsAreAccepted(String set) {
    Helm.Result render = Helm.template(ValueSet.DEFAULTS.with(set));

    assertTrue(render.succeeded(), render::describe);
  }

  // ---- the webhook-slow alert
  // --------------------------------------------------------------------

  @Test
  void theWebhookSlowAlertFiresBelowTheWebhooksTimeout() {
    JsonNode rule =
        Renders.of(ValueSet.DEFAULTS.with("monitoring.prometheusRule.enabled=true"))
            .only("PrometheusRule");
    JsonNode configuration =
        Renders.of(ValueSet.DEFAULTS).one("MutatingWebhookConfiguration", "kuik-webhook");

    String expr = rule.at("/spec/groups/0/rules/4/expr").asString();
    double threshold = Double.parseDouble(expr.substring(expr.lastIndexOf('>') + 1).trim());
    int timeout = configuration.at("/webhooks/0/timeoutSeconds").asInt();
    assertTrue(threshold < timeout, threshold + " s is not under the " + timeout + " s timeout");
  }

  @Test
  void aWebhookSlowThresholdAtOrAboveTheTimeoutIsRefused() {
    Helm.Result render =
        Helm.template(
            ValueSet.DEFAULTS.with(
                "monitoring.prometheusRule.enabled=true",
                "monitoring.prometheusRule.admissionSeconds=5"));

    assertFalse(render.succeeded(), render::describe);
    assertTrue(render.reports("webhook.timeoutSeconds"), render::describe);
  }

  // ---- volumes and arguments -------------------------------------------------------------------

  /** A private registry CA for the probes: a truststore mounted, and the JVM told about it. */
  @Test
  void volumesAndMountsAreAddedBesideTheChartsOwn() {
    ValueSet values =
        ValueSet.DEFAULTS.with(
            "webhook.volumes[0].name=truststore",
            "webhook.volumes[0].secret.secretName=company-ca",
            "webhook.volumeMounts[0].name=truststore",
            "webhook.volumeMounts[0].mountPath=/etc/kuik/truststore",
            "webhook.volumeMounts[0].readOnly=true");

    JsonNode pod = Renders.of(values).one("Deployment", "kuik-webhook").at("/spec/template/spec");

    assertEquals(List.of("tls", "tmp", "truststore"), names(pod.path("volumes")));
    assertEquals("company-ca", pod.at("/volumes/2/secret/secretName").asString());
    JsonNode mounts = pod.at("/containers/0/volumeMounts");
    assertEquals(List.of("tls", "tmp", "truststore"), names(mounts));
    assertEquals("/etc/kuik/truststore", mounts.get(2).path("mountPath").asString());
    assertEquals(
        List.of("tmp", "providers"),
        names(
            Renders.of(values)
                .one("Deployment", "kuik-secret-syncer")
                .at("/spec/template/spec/volumes")),
        "the syncer's volumes are its own");
  }

  @Test
  void extraArgsComeAfterTheChartsFlags() {
    ValueSet values = ValueSet.DEFAULTS.with("syncer.extraArgs[0]=--lease-duration=30s");

    List<String> args =
        ChartRenderTest.args(Renders.of(values).one("Deployment", "kuik-secret-syncer"));

    assertEquals("--lease-duration=30s", args.get(args.size() - 1));
    assertEquals("syncer", args.get(0));
  }

  @Test
  void anExtraArgTheChartAlreadySetsIsRefusedNamingTheValue() {
    Helm.Result render =
        Helm.template(ValueSet.DEFAULTS.with("webhook.extraArgs[0]=--probe-timeout=1s"));

    assertFalse(render.succeeded(), render::describe);
    assertTrue(render.error().contains("webhook.extraArgs sets --probe-timeout"), render::describe);
    assertTrue(render.error().contains("--probe-timeout=2s"), render::describe);
  }

  // ---- names and labels ------------------------------------------------------------------------

  @Test
  void fullnameOverrideNamesEveryObjectAndNameOverrideTheNameLabel() {
    ValueSet values = ValueSet.NAMED;
    RenderedManifests manifests = Renders.of(values);

    List<String> stillNamedAfterTheRelease = new ArrayList<>();
    for (JsonNode object : manifests.all()) {
      String name = RenderedManifests.name(object);
      if (name.startsWith("kuik-")
          && !RenderedManifests.kind(object).equals("CustomResourceDefinition")) {
        stillNamedAfterTheRelease.add(RenderedManifests.kind(object) + " " + name);
      }
    }
    assertAll(
        () -> assertEquals(List.of(), stillNamedAfterTheRelease),
        () -> manifests.one("Deployment", "images-secret-syncer"),
        () -> manifests.one("Service", "images-webhook"),
        () -> manifests.one("ValidatingAdmissionPolicy", "images-pull-secrets"),
        () ->
            assertEquals(
                "images-pull-secrets",
                manifests
                    .pullSecrets("ValidatingAdmissionPolicyBinding")
                    .at("/spec/policyName")
                    .asString()),
        () ->
            assertEquals(
                "image-routing",
                manifests
                    .one("Deployment", "images-webhook")
                    .at("/spec/selector/matchLabels/app.kubernetes.io~1name")
                    .asString()),
        () ->
            assertEquals(
                "kuik",
                manifests
                    .one("Deployment", "images-webhook")
                    .at("/metadata/labels/app.kubernetes.io~1instance")
                    .asString(),
                "the instance label stays the release's"));
  }

  @Test
  void commonLabelsAreOnEveryObjectAndEveryPodTemplate() {
    RenderedManifests manifests = Renders.of(ValueSet.NAMED);

    List<String> unlabelled = new ArrayList<>();
    for (JsonNode object : manifests.all()) {
      if (!"platform".equals(object.at("/metadata/labels/team").asString())) {
        unlabelled.add(RenderedManifests.kind(object) + " " + RenderedManifests.name(object));
      }
    }
    assertEquals(List.of(), unlabelled);
    assertEquals(
        "platform",
        manifests
            .one("Deployment", "images-secret-syncer")
            .at("/spec/template/metadata/labels/team")
            .asString());
    assertEquals(
        "eu-1",
        manifests
            .one("ClusterRole", "images-secret-syncer")
            .at("/metadata/labels/example.com~1cluster")
            .asString());
  }

  @Test
  void aPodLabelOfTheSameKeyAsACommonLabelWins() {
    RenderedManifests manifests = Renders.of(ValueSet.NAMED.with("syncer.podLabels.team=syncers"));

    JsonNode labels =
        manifests.one("Deployment", "images-secret-syncer").at("/spec/template/metadata/labels");
    assertEquals("syncers", labels.path("team").asString());
    assertEquals("secret-syncer", labels.path("app.kubernetes.io/component").asString());
  }

  // ---- extra objects and the NetworkPolicy
  // -------------------------------------------------------

  @Test
  void extraObjectsAreRenderedAsObjectsOrAsTemplates() {
    RenderedManifests manifests = Renders.of(ValueSet.EVERYTHING_ON);

    JsonNode object = manifests.one("ConfigMap", "registry-hosts");
    JsonNode template = manifests.one("ConfigMap", "notes");

    assertEquals("quay.io", object.at("/data/hosts").asString());
    assertEquals("kuik", template.at("/metadata/namespace").asString());
    assertEquals("kuik", template.at("/data/release").asString(), "rendered with tpl");
  }

  @Test
  void theNetworkPolicyIsOffByDefault() {
    assertTrue(Renders.of(ValueSet.DEFAULTS).ofKind("NetworkPolicy").isEmpty());
  }

  @Test
  void theNetworkPolicyLetsInTheWebhookPortAndTheHealthPortFromWhoIsListed() {
    ValueSet values =
        ValueSet.DEFAULTS.with(
            "networkPolicy.enabled=true",
            "networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.name=monitoring");
    RenderedManifests manifests = Renders.of(values);

    JsonNode webhook = manifests.one("NetworkPolicy", "kuik-webhook");
    JsonNode syncer = manifests.one("NetworkPolicy", "kuik-secret-syncer");
    assertAll(
        () -> assertEquals("[\"Ingress\"]", webhook.at("/spec/policyTypes").toString()),
        () -> assertEquals(8443, webhook.at("/spec/ingress/0/ports/0/port").asInt()),
        () -> assertTrue(webhook.at("/spec/ingress/0/from").isMissingNode(), "any source"),
        () -> assertEquals(8080, webhook.at("/spec/ingress/1/ports/0/port").asInt()),
        () ->
            assertEquals(
                "monitoring",
                webhook.at("/spec/ingress/1/from/0/namespaceSelector/matchLabels/name").asString()),
        () -> assertEquals(1, syncer.at("/spec/ingress").size(), "the health port only"),
        () -> assertEquals(8080, syncer.at("/spec/ingress/0/ports/0/port").asInt()),
        () ->
            assertEquals(
                "webhook",
                webhook
                    .at("/spec/podSelector/matchLabels/app.kubernetes.io~1component")
                    .asString()));
  }

  @Test
  void onlyTheApiServerReachesTheWebhookPortOnceItsAddressesOrPeersAreSet() {
    ValueSet values =
        ValueSet.DEFAULTS.with(
            "networkPolicy.enabled=true",
            "networkPolicy.apiServer.cidrs[0]=10.0.0.10/32",
            "networkPolicy.apiServer.cidrs[1]=10.0.1.0/28",
            "networkPolicy.apiServer.peers[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=kube-system",
            "networkPolicy.apiServer.peers[0].podSelector.matchLabels.k8s-app=konnectivity-agent");
    JsonNode webhook = Renders.of(values).one("NetworkPolicy", "kuik-webhook");

    JsonNode from = webhook.at("/spec/ingress/0/from");
    assertAll(
        () -> assertEquals(8443, webhook.at("/spec/ingress/0/ports/0/port").asInt()),
        () -> assertEquals(3, from.size(), from::toString),
        () ->
            assertEquals(
                "konnectivity-agent", from.at("/0/podSelector/matchLabels/k8s-app").asString()),
        () -> assertEquals("10.0.0.10/32", from.at("/1/ipBlock/cidr").asString()),
        () -> assertEquals("10.0.1.0/28", from.at("/2/ipBlock/cidr").asString()));
  }

  @Test
  void withCiliumsKubeApiServerEntityTheWebhookPortIsOpenToItAlone() {
    ValueSet values =
        ValueSet.DEFAULTS.with(
            "networkPolicy.enabled=true", "networkPolicy.apiServer.ciliumEntity=true");
    RenderedManifests manifests = Renders.of(values);

    JsonNode cilium = manifests.one("CiliumNetworkPolicy", "kuik-webhook-api-server");
    JsonNode webhook = manifests.one("NetworkPolicy", "kuik-webhook");
    assertAll(
        () ->
            assertEquals(
                "[\"kube-apiserver\"]", cilium.at("/spec/ingress/0/fromEntities").toString()),
        () -> assertEquals("8443", cilium.at("/spec/ingress/0/toPorts/0/ports/0/port").asString()),
        () ->
            assertEquals(
                "webhook",
                cilium
                    .at("/spec/endpointSelector/matchLabels/app.kubernetes.io~1component")
                    .asString()),
        () -> assertEquals(1, webhook.at("/spec/ingress").size(), "the health port only"),
        () -> assertEquals(8080, webhook.at("/spec/ingress/0/ports/0/port").asInt()));
  }

  @Test
  void anApiServerCidrThatIsNoCidrIsRefusedByTheSchema() {
    ValueSet values =
        ValueSet.DEFAULTS.with(
            "networkPolicy.enabled=true", "networkPolicy.apiServer.cidrs[0]=api.example.com");

    Helm.Result render = Helm.template(values);
    assertFalse(render.succeeded(), render::describe);
    assertTrue(render.reports("cidrs"), render::describe);
  }

  private static List<String> names(JsonNode list) {
    List<String> names = new ArrayList<>();
    list.forEach(item -> names.add(item.path("name").asString()));
    return names;
  }
}
