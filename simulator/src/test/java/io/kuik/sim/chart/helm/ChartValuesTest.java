package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** Each value reaches what it configures, and values the chart cannot honour are refused. */
class ChartValuesTest {

  @ParameterizedTest(name = "if {0}, expect {1} to run with {2}")
  @CsvSource({
    "syncer.gracePeriod=20m,                 secret-syncer, --grace-period=20m",
    "syncer.resyncPeriod=1h,                 secret-syncer, --resync-period=1h",
    "syncer.debounce=2s,                     secret-syncer, --debounce=2s",
    "syncer.namespacesByDefault=false,       secret-syncer, --namespaces-by-default=false",
    "syncer.api.qps=5,                       secret-syncer, --api-qps=5",
    "syncer.api.burst=7,                     secret-syncer, --api-burst=7",
    "syncer.healthPort=9090,                 secret-syncer, --health-port=9090",
    "logFormat=text,                         secret-syncer, --log-format=text",
    "logLevel=debug,                         secret-syncer, --log-level=debug",
    "logLevel=debug,                         webhook,       --log-level=debug",
    "webhook.port=9443,                      webhook,       --port=9443",
    "webhook.healthPort=9091,                webhook,       --health-port=9091",
    "webhook.probeTimeout=1s,                webhook,       --probe-timeout=1s",
    "webhook.probeCacheTtl=0s,               webhook,       --probe-cache-ttl=0s",
    "webhook.insecureRegistries={a.lan:5000}, webhook,      --insecure-registries=a.lan:5000",
    "webhook.shutdownDelay=20s,              webhook,       --shutdown-delay=20s",
    "logFormat=text,                         webhook,       --log-format=text",
    "pullSecretFirst.enabled=true,           secret-syncer, --release-gates=true",
    "pullSecretFirst.enabled=true,           webhook,       --pull-secret-first=true",
    "pullSecretFirst.maxWait=45s,            webhook,       --gate-max-wait=45s",
  })
  void eachFlagFollowsItsValue(String set, String component, String expectedFlag) {
    ValueSet values = ValueSet.DEFAULTS.with(set);

    JsonNode deployment = Renders.of(values).one("Deployment", "kuik-" + component);

    assertTrue(
        ChartRenderTest.args(deployment).contains(expectedFlag),
        () -> ChartRenderTest.args(deployment).toString());
  }

  @Test
  void defaultFlagsAreTheDocumentedOnes() {
    RenderedManifests manifests = Renders.of(ValueSet.DEFAULTS);

    assertAll(
        () ->
            assertEquals(
                List.of(
                    "syncer",
                    "--cluster-resource-namespace=kuik",
                    "--grace-period=15m",
                    "--resync-period=10m",
                    "--resync-share=0.5",
                    "--max-applies-in-flight=8",
                    "--debounce=500ms",
                    "--namespaces-by-default=true",
                    "--api-qps=20",
                    "--api-burst=50",
                    "--leader-elect=true",
                    "--health-port=8080",
                    "--admission-policy=kuik-pull-secrets",
                    "--admission-policy-binding=kuik-pull-secrets",
                    "--lease-name=kuik-secret-syncer",
                    "--excluded-namespaces=",
                    "--credential-trial-timeout=10s",
                    "--insecure-registries=",
                    "--log-format=json",
                    "--log-level=info",
                    "--release-gates=false",
                    "--provider-config=/kuik/providers/providers.yaml",
                    "--provider-bin-dir=/kuik/plugins",
                    "--provider-min-validity=15m",
                    "--provider-timeout=1m",
                    "--provider-concurrency=2"),
                ChartRenderTest.args(manifests.one("Deployment", "kuik-secret-syncer"))),
        () ->
            assertEquals(
                List.of(
                    "webhook",
                    "--cluster-resource-namespace=kuik",
                    "--port=8443",
                    "--tls-cert-file=/tls/tls.crt",
                    "--tls-key-file=/tls/tls.key",
                    "--health-port=8080",
                    "--probe-timeout=2s",
                    "--probe-cache-ttl=30s",
                    "--insecure-registries=",
                    "--shutdown-delay=5s",
                    "--log-format=json",
                    "--log-level=info",
                    "--excluded-namespaces=",
                    "--pull-secret-first=false",
                    "--gate-max-wait=30s"),
                ChartRenderTest.args(manifests.one("Deployment", "kuik-webhook"))),
        () ->
            assertEquals(
                2,
                manifests
                    .one("Deployment", "kuik-secret-syncer")
                    .path("spec")
                    .path("replicas")
                    .asInt()));
  }

  /**
   * For OwnerReferencesPermissionEnforcement (plugin/pkg/admission/gc/gc_admission.go): setting an
   * owner reference takes delete on the object, so the value grants the syncer delete on Secrets,
   * and only that.
   */
  @Test
  void ownerReferencesPermissionEnforcementGrantsTheSyncerDeleteOnSecretsOnly() {
    ValueSet values = ValueSet.DEFAULTS.with("syncer.ownerReferencesPermissionEnforcement=true");

    SecretGrants syncer =
        SecretGrants.of(Renders.of(values), values.namespace(), values.syncerName());

    assertEquals(java.util.Set.of("create", "delete", "patch"), syncer.clusterWide());
    assertEquals(
        java.util.Set.of("create", "patch"),
        SecretGrants.of(Renders.of(ValueSet.DEFAULTS), "kuik", "kuik-secret-syncer").clusterWide());
  }

  /**
   * providers renders the kubelet's CredentialProviderConfig, which the syncer's own reader takes,
   * mounted with the plugins' directory (an emptyDir the init container fills, or an image volume);
   * its checksum on the pod template restarts the syncer when it changes.
   */
  @Test
  void providersReachTheSyncerAsTheKubeletsConfigWithThePluginsBesideIt() {
    RenderedManifests manifests = Renders.of(ValueSet.EVERYTHING_ON);
    JsonNode config = manifests.one("ConfigMap", "kuik-providers");
    java.util.Map<String, io.kuik.model.CredentialProvider> providers =
        io.kuik.model.CredentialProviderConfig.parse(
            config.path("data").path("providers.yaml").asString(), "the ConfigMap");
    io.kuik.model.CredentialProvider ecr = providers.get("ecr-credential-provider");
    assertEquals(List.of("get-credentials"), ecr.args());
    assertEquals(java.time.Duration.ofHours(12), ecr.defaultCacheDuration());
    assertEquals(io.kuik.model.CredentialProvider.PROTOCOL_V1, ecr.apiVersion());

    JsonNode syncer = manifests.one("Deployment", "kuik-secret-syncer");
    List<String> args = ChartRenderTest.args(syncer);
    assertTrue(args.contains("--provider-config=/kuik/providers/providers.yaml"), args::toString);
    assertTrue(args.contains("--provider-min-validity=20m"), args::toString);
    JsonNode pod = syncer.path("spec").path("template");
    assertFalse(
        pod.path("metadata")
            .path("annotations")
            .path("kuik.enix.io/providers-checksum")
            .isMissingNode());
    JsonNode init = pod.path("spec").path("initContainers").path(0);
    assertEquals("registry.example.com/kuik/plugins:1", init.path("image").asString());
    assertEquals("/kuik/plugins", init.path("volumeMounts").path(0).path("mountPath").asString());
    assertTrue(pod.toString().contains("\"emptyDir\":{\"sizeLimit\":\"256Mi\"}"), pod::toString);

    JsonNode imageVolume =
        Renders.of(ValueSet.NAMED)
            .one("Deployment", "images-secret-syncer")
            .path("spec")
            .path("template");
    assertTrue(
        imageVolume
            .toString()
            .contains("\"image\":{\"reference\":\"registry.example.com/kuik/plugins:1\""),
        imageVolume::toString);
    assertTrue(imageVolume.path("spec").path("initContainers").isMissingNode());
  }

  @Test
  void providersNeedExactlyOneWayForThePluginsToReachTheSyncer() {
    ValueSet none =
        ValueSet.DEFAULTS.with(
            "providers[0].name=ecr",
            "providers[0].matchImages[0]=*.dkr.ecr.*.amazonaws.com",
            "providers[0].defaultCacheDuration=12h");
    Helm.Result neither = Helm.template(none);
    Helm.Result both =
        Helm.template(
            none.with(
                "providerCredentials.plugins.image.reference=a.io/p:1",
                "providerCredentials.plugins.initContainer.image=a.io/p:1"));

    for (Helm.Result render : List.of(neither, both)) {
      assertFalse(render.succeeded(), render::describe);
      assertTrue(render.reports("providerCredentials.plugins"), render::describe);
    }
  }

  @Test
  void oneSyncerMayRunWithoutLeaderElection() {
    ValueSet values =
        ValueSet.DEFAULTS.with("syncer.replicas=1", "syncer.leaderElection.enabled=false");

    JsonNode syncer = Renders.of(values).one("Deployment", "kuik-secret-syncer");

    assertTrue(ChartRenderTest.args(syncer).contains("--leader-elect=false"));
  }

  @Test
  void refusesSeveralSyncersWithoutLeaderElection() {
    Helm.Result render =
        Helm.template(ValueSet.DEFAULTS.with("syncer.leaderElection.enabled=false"));

    assertFalse(render.succeeded(), render::describe);
    assertTrue(render.reports("syncer.leaderElection.enabled"), render::describe);
  }

  @ParameterizedTest(name = "if {0}, expect the install to be refused")
  @CsvSource(
      delimiter = '|',
      value = {
        "syncer.unknownKey=1          | unknownKey",
        "webhook.timeoutSeconds=31    | webhook.timeoutSeconds",
        "webhook.timeoutSeconds=0     | webhook.timeoutSeconds",
        "logFormat=xml                | logFormat",
        "logLevel=verbose             | logLevel",
        "syncer.gracePeriod=15minutes | syncer.gracePeriod",
        "webhook.probeTimeout=2       | webhook.probeTimeout",
        "syncer.replicas=0            | syncer.replicas",
        "syncer.api.qps=0             | syncer.api.qps",
        "syncer.api.burst=0           | syncer.api.burst",
        "webhook.port=443             | webhook.port",
        "image.pullPolicy=Sometimes   | image.pullPolicy",
        "certManager.enabled=yes      | certManager.enabled",
        "webhook.excludedNamespaces[0]=Not_A_Namespace | webhook.excludedNamespaces",
        "image.digest=latest          | image.digest",
        "webhook.insecureRegistries[0]=http://a.lan | webhook.insecureRegistries",
        "webhook.probeCacheTtl=30     | webhook.probeCacheTtl",
        "webhook.tls.secretName=mine  | webhook.tls",
        "webhook.tls.caBundle=Q0E=    | webhook.tls",
        "syncer.peers[0].namespace=kuik-b | syncer.peers",
        "syncer.serviceAccount.name=default | syncer.serviceAccount.name",
        "certManager.issuerRef.kind=Vault | certManager.issuerRef.kind",
        "syncer.podDisruptionBudget.maxUnavailable=-1 | syncer.podDisruptionBudget",
        "metrics.serviceMonitor.interval=30 | metrics.serviceMonitor.interval",
        "syncer.resources.limits.memory=lots | syncer.resources.limits.memory",
        "syncer.resources.requests.cpu=-1 | syncer.resources.requests.cpu",
        "webhook.resources.requests.memory=1.5.3Gi | webhook.resources.requests.memory",
        "syncer.podDisruptionBudget.minAvailable=150% | syncer.podDisruptionBudget.minAvailable",
        "webhook.podDisruptionBudget.maxUnavailable=-5% | webhook.podDisruptionBudget.maxUnavailable",
        "webhook.podDisruptionBudget.maxUnavailable=two | webhook.podDisruptionBudget.maxUnavailable",
        "syncer.gracePeriod=0s        | syncer.gracePeriod",
        "syncer.resyncPeriod=0m       | syncer.resyncPeriod",
        "syncer.resyncShare=1.5       | syncer.resyncShare",
        "syncer.resyncShare=0.0       | syncer.resyncShare",
        "syncer.resyncShare=half      | syncer.resyncShare",
        "syncer.api.qps=0.0           | syncer.api.qps",
        "syncer.api.qps=fast          | syncer.api.qps",
        "monitoring.prometheusRule.queueWaitSeconds=0.0 | queueWaitSeconds",
        "fullnameOverride=Kuik_Prod   | fullnameOverride",
        "commonLabels.app\\.kubernetes\\.io/name=x | commonLabels",
        "providers[0].name=ECR         | providers",
        "providers[0].name=ecr         | providers",
        "providerCredentials.minValidity=15 | providerCredentials.minValidity",
        "providerCredentials.concurrency=0 | providerCredentials.concurrency",
        "monitoring.prometheusRule.providerRefreshShare=0.7 | providerRefreshShare",
      })
  void refusesValuesOutsideTheSchema(String set, String reportedKey) {
    Helm.Result render = Helm.template(ValueSet.DEFAULTS.with(set));

    assertFalse(render.succeeded(), render::describe);
    assertTrue(render.reports(reportedKey), render::describe);
  }

  @Test
  void theWebhookLeavesOutTheInstallNamespaceAndKubeSystemByDefault() {
    JsonNode configuration =
        Renders.of(ValueSet.DEFAULTS).one("MutatingWebhookConfiguration", "kuik-webhook");

    assertEquals(
        List.of(ValueSet.DEFAULTS.namespace(), "kube-system"),
        ChartRenderTest.excludedNamespaces(configuration.path("webhooks").path(0)));
  }

  @Test
  void excludedNamespacesJoinTheInstallNamespaceAndKubeSystemInTheWebhookSelector() {
    ValueSet values =
        ValueSet.OTHER_NAMESPACE.with(
            "webhook.excludedNamespaces={kube-system,monitoring,kuik-other}");

    JsonNode configuration = Renders.of(values).one("MutatingWebhookConfiguration", "kuik-webhook");

    assertEquals(
        List.of("kuik-other", "kube-system", "monitoring"),
        ChartRenderTest.excludedNamespaces(configuration.path("webhooks").path(0)));
  }

  @Test
  void imageTagDefaultsToTheChartAppVersion() throws Exception {
    String chartYaml = Files.readString(Helm.chartDir().resolve("Chart.yaml"));
    String appVersion =
        chartYaml
            .lines()
            .filter(line -> line.startsWith("appVersion:"))
            .map(line -> line.substring("appVersion:".length()).trim().replace("\"", ""))
            .findFirst()
            .orElseThrow();

    RenderedManifests manifests = Renders.of(ValueSet.DEFAULTS);
    RenderedManifests pinned = Renders.of(ValueSet.DEFAULTS.with("image.tag=1.2.3"));

    assertEquals(
        System.getProperty("kuik.project.version"),
        appVersion,
        "the chart's appVersion is the version the image is built and tagged with");
    for (String name : List.of("kuik-secret-syncer", "kuik-webhook")) {
      assertEquals(
          "ghcr.io/kuik-secret-syncer/kuik:" + appVersion,
          ChartRenderTest.container(manifests.one("Deployment", name)).path("image").asString());
      assertEquals(
          "ghcr.io/kuik-secret-syncer/kuik:1.2.3",
          ChartRenderTest.container(pinned.one("Deployment", name)).path("image").asString());
    }
  }

  @Test
  void generatedCertificateCoversTheServiceAndChainsToTheCaBundle() throws Exception {
    ValueSet values = ValueSet.OTHER_NAMESPACE;
    RenderedManifests manifests = Renders.of(values);
    JsonNode secret = manifests.one("Secret", "kuik-webhook-tls");
    JsonNode webhook =
        manifests.one("MutatingWebhookConfiguration", "kuik-webhook").path("webhooks").path(0);

    X509Certificate ca = certificate(secret.path("data").path("ca.crt").asString());
    X509Certificate serving = certificate(secret.path("data").path("tls.crt").asString());
    List<String> dnsNames = new ArrayList<>();
    for (List<?> san : serving.getSubjectAlternativeNames()) {
      if (Integer.valueOf(2).equals(san.get(0))) {
        dnsNames.add((String) san.get(1));
      }
    }

    serving.verify(ca.getPublicKey());
    assertAll(
        () ->
            assertEquals(
                secret.path("data").path("ca.crt").asString(),
                webhook.path("clientConfig").path("caBundle").asString()),
        () -> assertTrue(dnsNames.contains("kuik-webhook.kuik-other.svc"), dnsNames::toString),
        () -> assertTrue(dnsNames.contains("kuik-webhook.kuik-other.svc.cluster.local")),
        () -> assertEquals("kubernetes.io/tls", secret.path("type").asString()),
        () -> assertFalse(secret.path("data").path("tls.key").asString("").isEmpty()),
        () ->
            assertEquals(
                "kuik-webhook-tls",
                volumeSecret(manifests.one("Deployment", "kuik-webhook"), "tls")));
  }

  @Test
  void certManagerIssuesTheCertificateAndInjectsItsCa() {
    RenderedManifests manifests = Renders.of(ValueSet.CERT_MANAGER);
    JsonNode configuration = manifests.one("MutatingWebhookConfiguration", "kuik-webhook");
    JsonNode certificate = manifests.only("Certificate");
    JsonNode issuer = manifests.only("Issuer");

    assertAll(
        () ->
            assertEquals(
                "kuik/" + RenderedManifests.name(certificate),
                configuration
                    .path("metadata")
                    .path("annotations")
                    .path("cert-manager.io/inject-ca-from")
                    .asString()),
        () ->
            assertTrue(
                configuration
                    .path("webhooks")
                    .path(0)
                    .path("clientConfig")
                    .path("caBundle")
                    .isMissingNode(),
                "cert-manager's CA injector fills the caBundle"),
        () ->
            assertEquals(
                RenderedManifests.name(issuer),
                certificate.path("spec").path("issuerRef").path("name").asString()),
        () -> assertFalse(issuer.path("spec").path("selfSigned").isMissingNode()),
        () ->
            assertTrue(
                RenderedManifests.strings(certificate.path("spec").path("dnsNames"))
                    .contains("kuik-webhook.kuik.svc")),
        () ->
            assertEquals(
                certificate.path("spec").path("secretName").asString(),
                volumeSecret(manifests.one("Deployment", "kuik-webhook"), "tls")));
  }

  @Test
  void notesTellHowToKeepTheSyncersSecretsOutOfBackupsAndHowToCheckTheSyncer() {
    String notes = Helm.notes(ValueSet.OTHER_RELEASE.with("syncer.namespacesByDefault=false"));

    assertAll(
        () ->
            assertTrue(
                notes.contains(
                    "--selector 'app.kubernetes.io/managed-by notin (kuik-secret-syncer)'"),
                notes),
        () -> assertTrue(notes.contains("rollout status deployment/images-secret-syncer"), notes),
        () -> assertTrue(notes.contains("kubectl -n kuik "), notes),
        () -> assertTrue(notes.contains("kuik.enix.io/pull-secrets-instance=kuik"), notes),
        () -> assertTrue(notes.contains("none by default"), notes),
        () ->
            assertTrue(
                notes.contains("['system:serviceaccount:kuik:images-secret-syncer']"), notes),
        () -> assertFalse(notes.contains("{{"), notes));
  }

  private static X509Certificate certificate(String base64Pem) throws Exception {
    byte[] pem = Base64.getDecoder().decode(base64Pem);
    return (X509Certificate)
        CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(pem));
  }

  private static String volumeSecret(JsonNode deployment, String volume) {
    for (JsonNode candidate : ChartRenderTest.podSpec(deployment).path("volumes").values()) {
      if (volume.equals(candidate.path("name").asString())) {
        return candidate.path("secret").path("secretName").asString();
      }
    }
    throw new AssertionError("no volume named " + volume);
  }
}
