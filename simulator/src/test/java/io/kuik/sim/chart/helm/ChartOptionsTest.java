package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The values a production install sets beside the flags: identities, peers, disruption budgets,
 * spreading, metrics, certificate sources, host network, CRDs. Each reaches the objects it
 * configures, and its default is the documented one.
 */
class ChartOptionsTest {

  private static final ValueSet ALL_ON = ValueSet.EVERYTHING_ON;

  @Test
  void imageDigestPinsTheImageAndKeepsTheTag() {
    JsonNode container =
        ChartRenderTest.container(Renders.of(ALL_ON).one("Deployment", "kuik-webhook"));

    assertEquals(
        "ghcr.io/kuik-secret-syncer/kuik:"
            + System.getProperty("kuik.project.version")
            + "@sha256:"
            + "0123456789abcdef".repeat(4),
        container.path("image").asString());
  }

  @Test
  void serviceAccountsTakeTheirNamesAndAnnotationsEverywhereTheyAreNamed() {
    RenderedManifests manifests = Renders.of(ALL_ON);
    JsonNode syncerAccount = manifests.one("ServiceAccount", "kuik-syncer-identity");
    JsonNode policy = manifests.pullSecrets("ValidatingAdmissionPolicy");

    assertAll(
        () -> manifests.one("ServiceAccount", "kuik-webhook-identity"),
        () ->
            assertEquals(
                "kuik@p.iam",
                syncerAccount
                    .path("metadata")
                    .path("annotations")
                    .path("iam.gke.io/gcp-service-account")
                    .asString()),
        () ->
            assertEquals(
                "kuik-syncer-identity",
                ChartRenderTest.podSpec(manifests.one("Deployment", "kuik-secret-syncer"))
                    .path("serviceAccountName")
                    .asString()),
        () ->
            assertEquals(
                "kuik-webhook-identity",
                ChartRenderTest.podSpec(manifests.one("Deployment", "kuik-webhook"))
                    .path("serviceAccountName")
                    .asString()),
        () ->
            assertEquals(
                List.of("kuik-syncer-identity"), subjects(manifests, "kuik-secret-syncer")),
        () -> assertEquals(List.of("kuik-webhook-identity"), subjects(manifests, "kuik-webhook")),
        () ->
            assertTrue(
                policy.toString().contains("system:serviceaccount:kuik:kuik-syncer-identity"),
                "the policy names the syncer's own ServiceAccount"));
  }

  @Test
  void serviceAccountsTheUserBringsAreNotCreated() {
    RenderedManifests manifests =
        Renders.of(
            ValueSet.DEFAULTS.with(
                "syncer.serviceAccount.create=false",
                "syncer.serviceAccount.name=platform-syncer",
                "webhook.serviceAccount.create=false"));

    assertEquals(List.of(), manifests.ofKind("ServiceAccount"));
    assertEquals(List.of("platform-syncer"), subjects(manifests, "kuik-secret-syncer"));
  }

  @Test
  void thePolicyTreatsExactlyTheReleasesSyncerAndItsPeersAsSyncers() {
    JsonNode policy = Renders.of(ALL_ON).pullSecrets("ValidatingAdmissionPolicy");
    String expected =
        "request.userInfo.username in ['system:serviceaccount:kuik:kuik-syncer-identity',"
            + " 'system:serviceaccount:kuik-b:kuik-b-secret-syncer',"
            + " 'system:serviceaccount:kuik-c:shard-c-syncer']";
    String defaults =
        "request.userInfo.username in ['system:serviceaccount:kuik:kuik-secret-syncer']";

    assertAll(
        () -> assertEquals(expected, variable(policy, "syncerAccount")),
        () ->
            assertEquals(
                "variables.syncerAccount && variables.podBound", variable(policy, "syncer")),
        () ->
            assertTrue(
                matchCondition(policy, "syncer-write-or-reserved-name")
                    .startsWith(expected + " ||")),
        () ->
            assertEquals(
                defaults,
                variable(
                    Renders.of(ValueSet.DEFAULTS).pullSecrets("ValidatingAdmissionPolicy"),
                    "syncerAccount")),
        () -> assertFalse(policy.toString().contains(".matches("), "no name pattern decides"));
  }

  @Test
  void eachComponentWithSeveralReplicasGetsADisruptionBudget() {
    RenderedManifests defaults = Renders.of(ValueSet.DEFAULTS);
    JsonNode syncer = defaults.one("PodDisruptionBudget", "kuik-secret-syncer");
    RenderedManifests single =
        Renders.of(
            ValueSet.DEFAULTS.with("syncer.replicas=1", "syncer.leaderElection.enabled=true"));
    RenderedManifests off =
        Renders.of(ValueSet.DEFAULTS.with("webhook.podDisruptionBudget.enabled=false"));

    assertAll(
        () -> assertEquals(1, syncer.path("spec").path("maxUnavailable").asInt()),
        () -> assertTrue(syncer.path("spec").path("minAvailable").isMissingNode()),
        () ->
            assertEquals(
                selector("secret-syncer"),
                labels(syncer.path("spec").path("selector").path("matchLabels"))),
        () -> defaults.one("PodDisruptionBudget", "kuik-webhook"),
        () ->
            assertEquals(
                List.of("kuik-webhook"),
                single.ofKind("PodDisruptionBudget").stream().map(RenderedManifests::name).toList(),
                "one replica: no budget, it would block every drain"),
        () ->
            assertEquals(
                List.of("kuik-secret-syncer"),
                off.ofKind("PodDisruptionBudget").stream().map(RenderedManifests::name).toList()),
        () ->
            assertEquals(
                1,
                Renders.of(ALL_ON)
                    .one("PodDisruptionBudget", "kuik-secret-syncer")
                    .path("spec")
                    .path("minAvailable")
                    .asInt()));
  }

  @Test
  void replicasSpreadOverNodesByDefaultAndTheSpreadCanBeTurnedOff() {
    JsonNode constraint =
        ChartRenderTest.podSpec(Renders.of(ValueSet.DEFAULTS).one("Deployment", "kuik-webhook"))
            .path("topologySpreadConstraints")
            .path(0);
    JsonNode off =
        ChartRenderTest.podSpec(
            Renders.of(ValueSet.OWN_TLS_NO_CRDS).one("Deployment", "kuik-secret-syncer"));

    assertAll(
        () -> assertEquals("kubernetes.io/hostname", constraint.path("topologyKey").asString()),
        () -> assertEquals("ScheduleAnyway", constraint.path("whenUnsatisfiable").asString()),
        () -> assertEquals(1, constraint.path("maxSkew").asInt()),
        () ->
            assertEquals(
                selector("webhook"), labels(constraint.path("labelSelector").path("matchLabels"))),
        () -> assertTrue(off.path("topologySpreadConstraints").isMissingNode()));
  }

  @Test
  void eachComponentHasAMetricsServiceOnItsHealthPort() {
    RenderedManifests manifests = Renders.of(ValueSet.DEFAULTS.with("syncer.healthPort=9090"));

    for (String component : List.of("secret-syncer", "webhook")) {
      JsonNode service = manifests.one("Service", "kuik-" + component + "-metrics");
      JsonNode port = service.path("spec").path("ports").path(0);
      assertAll(
          component,
          () -> assertEquals("metrics", port.path("name").asString()),
          () -> assertEquals("health", port.path("targetPort").asString()),
          () -> assertEquals(component.equals("webhook") ? 8080 : 9090, port.path("port").asInt()),
          () -> assertEquals(selector(component), labels(service.path("spec").path("selector"))));
    }
    assertEquals(
        List.of("kuik-webhook"),
        Renders.of(ValueSet.OWN_TLS_NO_CRDS).ofKind("Service").stream()
            .map(RenderedManifests::name)
            .toList());
  }

  @Test
  void theMonitorsScrapeBothComponentsAndCarryTheirLabels() {
    RenderedManifests manifests = Renders.of(ALL_ON);
    JsonNode serviceMonitor = manifests.only("ServiceMonitor");
    JsonNode podMonitor = manifests.only("PodMonitor");
    Map<String, String> selected =
        labels(serviceMonitor.path("spec").path("selector").path("matchLabels"));

    assertAll(
        () ->
            assertEquals(
                "prometheus",
                serviceMonitor.path("metadata").path("labels").path("release").asString()),
        () ->
            assertEquals(
                "metrics",
                serviceMonitor.path("spec").path("endpoints").path(0).path("port").asString()),
        () ->
            assertEquals(
                "health",
                podMonitor
                    .path("spec")
                    .path("podMetricsEndpoints")
                    .path(0)
                    .path("port")
                    .asString()),
        () -> {
          for (JsonNode service : manifests.ofKind("Service")) {
            boolean metrics = RenderedManifests.name(service).endsWith("-metrics");
            assertEquals(
                metrics,
                labels(service.path("metadata").path("labels"))
                    .entrySet()
                    .containsAll(selected.entrySet()),
                RenderedManifests.name(service)
                    + " is scraped exactly when it is a metrics Service");
          }
        },
        () -> assertTrue(Renders.of(ValueSet.DEFAULTS).ofKind("ServiceMonitor").isEmpty()),
        () -> assertTrue(Renders.of(ValueSet.DEFAULTS).ofKind("PodMonitor").isEmpty()));
  }

  @Test
  void aServiceMonitorWithoutTheMetricsServicesIsRefused() {
    Helm.Result render =
        Helm.template(
            ValueSet.DEFAULTS.with(
                "metrics.serviceMonitor.enabled=true", "metrics.service.enabled=false"));

    assertFalse(render.succeeded(), render::describe);
    assertTrue(render.reports("metrics.service.enabled"), render::describe);
  }

  @Test
  void certManagerSignsWithTheIssuerTheUserNames() {
    RenderedManifests manifests = Renders.of(ALL_ON);
    JsonNode issuerRef = manifests.only("Certificate").path("spec").path("issuerRef");

    assertAll(
        () -> assertEquals("company-ca", issuerRef.path("name").asString()),
        () -> assertEquals("ClusterIssuer", issuerRef.path("kind").asString()),
        () -> assertEquals("cert-manager.io", issuerRef.path("group").asString()),
        () -> assertEquals(List.of(), manifests.ofKind("Issuer"), "no self-signed Issuer"),
        () -> assertEquals(List.of(), manifests.ofKind("Secret")));
  }

  @Test
  void aTlsSecretTheUserBringsIsMountedAndItsCaBundleUsed() {
    RenderedManifests manifests = Renders.of(ValueSet.OWN_TLS_NO_CRDS);
    JsonNode webhook = manifests.one("MutatingWebhookConfiguration", "kuik-webhook");
    String mounted = "";
    for (JsonNode volume :
        ChartRenderTest.podSpec(manifests.one("Deployment", "kuik-webhook"))
            .path("volumes")
            .values()) {
      if (volume.path("name").asString().equals("tls")) {
        mounted = volume.path("secret").path("secretName").asString();
      }
    }
    String secretName = mounted;

    assertAll(
        () -> assertEquals("company-webhook-tls", secretName),
        () ->
            assertEquals(
                "Q0E=",
                webhook.path("webhooks").path(0).path("clientConfig").path("caBundle").asString()),
        () -> assertTrue(webhook.path("metadata").path("annotations").isMissingNode()),
        () -> assertEquals(List.of(), manifests.ofKind("Secret"), "the chart generates none"),
        () -> assertEquals(List.of(), manifests.ofKind("Certificate")));
  }

  @Test
  void theWebhookCanRunOnTheHostNetworkAtItsPort() {
    JsonNode deployment = Renders.of(ALL_ON).one("Deployment", "kuik-webhook");
    JsonNode pod = ChartRenderTest.podSpec(deployment);

    assertAll(
        () -> assertTrue(pod.path("hostNetwork").asBoolean()),
        () -> assertEquals("ClusterFirstWithHostNet", pod.path("dnsPolicy").asString()),
        () -> assertTrue(ChartRenderTest.args(deployment).contains("--port=9443")),
        () ->
            assertTrue(
                ChartRenderTest.podSpec(
                        Renders.of(ValueSet.DEFAULTS).one("Deployment", "kuik-webhook"))
                    .path("hostNetwork")
                    .isMissingNode()));
  }

  @Test
  void theCrdsAreTheGeneratedOnesKeptOnUninstallUnlessTurnedOff() throws Exception {
    RenderedManifests defaults = Renders.of(ValueSet.DEFAULTS);
    JsonNode mirrors = defaults.one("CustomResourceDefinition", "imagemirrors.kuik.enix.io");
    JsonNode generated =
        YAMLMapper.builder()
            .build()
            .readTree(
                Files.readString(
                    Helm.chartDir().resolve("files/crds/imagemirrors.kuik.enix.io.yaml")));
    JsonNode notKept =
        Renders.of(ValueSet.DEFAULTS.with("crds.keep=false"))
            .one("CustomResourceDefinition", "imagemirrors.kuik.enix.io");

    assertAll(
        () -> assertEquals(generated.path("spec"), mirrors.path("spec")),
        () ->
            assertEquals(
                "keep",
                mirrors
                    .path("metadata")
                    .path("annotations")
                    .path("helm.sh/resource-policy")
                    .asString()),
        () ->
            assertEquals(
                "kuik",
                mirrors
                    .path("metadata")
                    .path("labels")
                    .path("app.kubernetes.io/instance")
                    .asString()),
        () -> assertTrue(notKept.path("metadata").path("annotations").isMissingNode()),
        () ->
            assertEquals(
                List.of(),
                Renders.of(ValueSet.OWN_TLS_NO_CRDS).ofKind("CustomResourceDefinition")));
  }

  @ParameterizedTest(name = "if timeoutSeconds={0} and probeTimeout={1}, expect accepted={2}")
  @CsvSource({
    "3,  2s,     true",
    "3,  2999ms, true",
    "3,  3s,     false",
    "3,  3000ms, false",
    "3,  1m,     false",
    "1,  999ms,  true",
    "1,  1s,     false",
    "10, 9s,     true",
    "10, 9999ms, true",
    "10, 10s,    false",
    "30, 29s,    true",
    "30, 30s,    false",
  })
  void theSchemaKeepsTheProbeTimeoutUnderTheWebhooksTimeout(
      int timeoutSeconds, String probeTimeout, boolean accepted) {
    Helm.Result render =
        Helm.template(
            ValueSet.DEFAULTS.with(
                "webhook.timeoutSeconds=" + timeoutSeconds,
                "webhook.probeTimeout=" + probeTimeout));

    assertEquals(accepted, render.succeeded(), render::describe);
    if (!accepted) {
      assertTrue(render.reports("probeTimeout"), render::describe);
    }
  }

  private static String variable(JsonNode policy, String name) {
    for (JsonNode variable : policy.path("spec").path("variables").values()) {
      if (variable.path("name").asString().equals(name)) {
        return variable.path("expression").asString();
      }
    }
    throw new AssertionError("no variable " + name);
  }

  private static String matchCondition(JsonNode policy, String name) {
    for (JsonNode condition : policy.path("spec").path("matchConditions").values()) {
      if (condition.path("name").asString().equals(name)) {
        return condition.path("expression").asString();
      }
    }
    throw new AssertionError("no match condition " + name);
  }

  @Test
  void jvmOptionsReachTheJvmsCommandLineAndTheExtraEnvironmentStaysTheUsers() throws Exception {
    JsonNode values =
        YAMLMapper.builder().build().readTree(Helm.chartDir().resolve("values.yaml").toFile());
    String defaults = values.path("syncer").path("jvmOptions").asString();
    RenderedManifests byDefault = Renders.of(ValueSet.DEFAULTS);
    RenderedManifests set = Renders.of(ALL_ON);

    assertAll(
        () -> assertFalse(defaults.isBlank(), "values.yaml gives the syncer JVM options"),
        () ->
            assertEquals(
                defaults,
                values.path("webhook").path("jvmOptions").asString(),
                "both components have the same defaults"),
        () ->
            assertEquals(
                "java " + defaults + " -cp @/app/jib-classpath-file io.kuik.cli.Main",
                command(byDefault, "kuik-secret-syncer")),
        () -> assertEquals(List.of(), env(byDefault, "kuik-webhook")),
        () ->
            assertEquals(
                "java -XX:MaxRAMPercentage=60.0 -Djavax.net.ssl.trustStore=/ca/trust.p12"
                    + " -cp @/app/jib-classpath-file io.kuik.cli.Main",
                command(set, "kuik-secret-syncer")),
        () -> assertEquals(List.of("TZ=UTC"), env(set, "kuik-webhook")));
  }

  /** The first container's command, words joined by spaces. */
  private static String command(RenderedManifests manifests, String deployment) {
    return String.join(
        " ",
        RenderedManifests.strings(
            ChartRenderTest.container(manifests.one("Deployment", deployment)).path("command")));
  }

  /** The first container's environment, as name=value in order. */
  private static List<String> env(RenderedManifests manifests, String deployment) {
    return ChartRenderTest.container(manifests.one("Deployment", deployment))
        .path("env")
        .values()
        .stream()
        .map(e -> e.path("name").asString() + "=" + e.path("value").asString())
        .toList();
  }

  /** The ServiceAccounts the component's bindings name. */
  private static List<String> subjects(RenderedManifests manifests, String binding) {
    return List.of("ClusterRoleBinding", "RoleBinding").stream()
        .map(kind -> manifests.one(kind, binding))
        .flatMap(b -> b.path("subjects").values().stream())
        .map(subject -> subject.path("name").asString())
        .distinct()
        .toList();
  }

  private static Map<String, String> selector(String component) {
    return Map.of(
        "app.kubernetes.io/name", "kuik",
        "app.kubernetes.io/instance", "kuik",
        "app.kubernetes.io/component", component);
  }

  private static Map<String, String> labels(JsonNode map) {
    Map<String, String> labels = new TreeMap<>();
    map.properties().forEach(e -> labels.put(e.getKey(), e.getValue().asString()));
    return labels;
  }
}
