package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * The chart as {@code helm lint} and {@code helm template} see it, for each install the README
 * describes: default values, cert-manager, another namespace, another release name. Each check is a
 * property that docs/behaviour.md#what-the-syncer-may-write promises to an installer.
 */
class ChartRenderTest {

  static List<ValueSet> valueSets() {
    return ValueSet.all();
  }

  static List<ValueSet> valueSetsWithOptions() {
    return ValueSet.withOptions();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSetsWithOptions")
  void lintsCleanInStrictMode(ValueSet values) {
    Helm.Result lint = Helm.lint(values);

    assertTrue(lint.succeeded(), lint::describe);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void rendersBothComponentsTheirRbacThePolicyAndTheCrds(ValueSet values) {
    RenderedManifests manifests = Renders.of(values);

    Set<String> expected =
        new TreeSet<>(
            Set.of(
                "ServiceAccount",
                "Deployment",
                "Service",
                "MutatingWebhookConfiguration",
                "ValidatingAdmissionPolicy",
                "ValidatingAdmissionPolicyBinding",
                "ClusterRole",
                "ClusterRoleBinding",
                "CustomResourceDefinition"));
    expected.addAll(values.certManager() ? Set.of("Issuer", "Certificate") : Set.of("Secret"));
    Set<String> kinds = manifests.kinds();
    assertTrue(kinds.containsAll(expected), () -> "missing " + difference(expected, kinds));
    assertAll(
        () -> manifests.one("ServiceAccount", values.syncerName()),
        () -> manifests.one("ServiceAccount", values.webhookName()),
        () -> manifests.one("Deployment", values.syncerName()),
        () -> manifests.one("Deployment", values.webhookName()),
        () -> manifests.one("CustomResourceDefinition", "imagealternatives.kuik.enix.io"),
        () -> manifests.one("CustomResourceDefinition", "imagemirrors.kuik.enix.io"),
        () ->
            assertEquals(
                !values.certManager(),
                kinds.contains("Secret"),
                "the chart generates the webhook's TLS Secret exactly when cert-manager is off"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void leavesNoTemplateUnrenderedAndNoObjectTwice(ValueSet values) {
    RenderedManifests manifests = Renders.of(values);

    Set<String> seen = new HashSet<>();
    List<String> duplicates = new ArrayList<>();
    for (JsonNode object : manifests.all()) {
      String id =
          RenderedManifests.kind(object)
              + " "
              + RenderedManifests.namespace(object)
              + "/"
              + RenderedManifests.name(object);
      if (!seen.add(id)) {
        duplicates.add(id);
      }
    }
    assertAll(
        () -> assertFalse(manifests.text().contains("{{"), "a {{ survived the render"),
        () -> assertEquals(List.of(), duplicates, "objects rendered twice"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void bothCommandsRunInTheInstallNamespaceUnderTheirOwnServiceAccount(ValueSet values) {
    RenderedManifests manifests = Renders.of(values);

    JsonNode syncer = manifests.one("Deployment", values.syncerName());
    JsonNode webhook = manifests.one("Deployment", values.webhookName());
    String namespaceFlag = "--cluster-resource-namespace=" + values.namespace();
    assertAll(
        () -> assertEquals("syncer", args(syncer).get(0)),
        () -> assertEquals("webhook", args(webhook).get(0)),
        () -> assertTrue(args(syncer).contains(namespaceFlag), () -> "syncer " + args(syncer)),
        () -> assertTrue(args(webhook).contains(namespaceFlag), () -> "webhook " + args(webhook)),
        () ->
            assertEquals(
                values.syncerName(), podSpec(syncer).path("serviceAccountName").asString()),
        () ->
            assertEquals(
                values.webhookName(), podSpec(webhook).path("serviceAccountName").asString()),
        () -> assertEquals(values.namespace(), RenderedManifests.namespace(syncer)),
        () -> assertEquals(values.namespace(), RenderedManifests.namespace(webhook)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void containersRunHardenedWithHealthProbesOnTheHealthPort(ValueSet values) {
    List<JsonNode> deployments = Renders.of(values).ofKind("Deployment");

    assertEquals(2, deployments.size(), "the syncer and the webhook");
    for (JsonNode deployment : deployments) {
      JsonNode pod = podSpec(deployment);
      JsonNode container = container(deployment);
      JsonNode security = container.path("securityContext");
      String where = RenderedManifests.name(deployment);
      assertAll(
          where,
          () -> assertTrue(pod.path("securityContext").path("runAsNonRoot").asBoolean()),
          () -> assertEquals(65532, pod.path("securityContext").path("runAsUser").asInt()),
          () ->
              assertEquals(
                  "RuntimeDefault",
                  pod.path("securityContext").path("seccompProfile").path("type").asString()),
          () -> assertTrue(security.path("readOnlyRootFilesystem").asBoolean()),
          () -> assertFalse(security.path("allowPrivilegeEscalation").asBoolean(true)),
          () ->
              assertEquals(
                  List.of("ALL"),
                  RenderedManifests.strings(security.path("capabilities").path("drop"))),
          () ->
              assertEquals(
                  "/healthz",
                  container.path("livenessProbe").path("httpGet").path("path").asString()),
          () ->
              assertEquals(
                  "/readyz",
                  container.path("readinessProbe").path("httpGet").path("path").asString()),
          () ->
              assertEquals(
                  "health",
                  container.path("livenessProbe").path("httpGet").path("port").asString()),
          () ->
              assertEquals(
                  "health",
                  container.path("readinessProbe").path("httpGet").path("port").asString()),
          () ->
              assertTrue(
                  args(deployment).contains("--health-port=" + port(container, "health")),
                  "the health port the command listens on is the one the probes use"));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void webhookNeverSeesTheInstallNamespaceAndNeverBlocksAdmission(ValueSet values) {
    RenderedManifests manifests = Renders.of(values);

    JsonNode configuration = manifests.one("MutatingWebhookConfiguration", values.webhookName());
    List<JsonNode> webhooks = List.copyOf(configuration.path("webhooks").values());
    assertEquals(1, webhooks.size(), "one webhook, for pods");
    JsonNode webhook = webhooks.get(0);
    JsonNode rule = webhook.path("rules").path(0);
    JsonNode service = webhook.path("clientConfig").path("service");
    assertAll(
        () -> assertEquals("Ignore", webhook.path("failurePolicy").asString()),
        () -> assertEquals("None", webhook.path("sideEffects").asString()),
        () -> assertEquals("Never", webhook.path("reinvocationPolicy").asString()),
        () -> assertEquals(3, webhook.path("timeoutSeconds").asInt()),
        () ->
            assertEquals(
                List.of("v1"), RenderedManifests.strings(webhook.path("admissionReviewVersions"))),
        () -> assertEquals(List.of("CREATE"), RenderedManifests.strings(rule.path("operations"))),
        () -> assertEquals(List.of("pods"), RenderedManifests.strings(rule.path("resources"))),
        () -> assertEquals(List.of(""), RenderedManifests.strings(rule.path("apiGroups"))),
        () -> assertTrue(excludedNamespaces(webhook).contains(values.namespace())),
        () -> assertEquals(values.namespace(), service.path("namespace").asString()),
        () -> manifests.one("Service", service.path("name").asString()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void theSyncerWaitsForThePolicyAndBindingTheChartInstallsAndMayGetThemByName(ValueSet values) {
    RenderedManifests manifests = Renders.of(values);
    String policy =
        manifests.pullSecrets("ValidatingAdmissionPolicy").path("metadata").path("name").asString();
    String binding =
        manifests
            .pullSecrets("ValidatingAdmissionPolicyBinding")
            .path("metadata")
            .path("name")
            .asString();
    List<String> args = args(manifests.one("Deployment", values.release() + "-secret-syncer"));

    assertAll(
        () -> assertTrue(args.contains("--admission-policy=" + policy), args::toString),
        () -> assertTrue(args.contains("--admission-policy-binding=" + binding), args::toString),
        () -> {
          JsonNode role = manifests.one("ClusterRole", values.release() + "-secret-syncer");
          boolean granted = false;
          for (JsonNode rule : role.path("rules")) {
            if (RenderedManifests.strings(rule.path("apiGroups"))
                .contains("admissionregistration.k8s.io")) {
              assertEquals(List.of("list", "watch"), RenderedManifests.strings(rule.path("verbs")));
              assertEquals(
                  new TreeSet<>(List.of(policy, binding)),
                  new TreeSet<>(RenderedManifests.strings(rule.path("resourceNames"))));
              granted = true;
            }
          }
          assertTrue(granted, "the syncer may get its policy and binding");
        });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void syncerReadsSecretsOnlyInTheInstallNamespace(ValueSet values) {
    RenderedManifests manifests = Renders.of(values);

    SecretGrants syncer = SecretGrants.of(manifests, values.namespace(), values.syncerName());
    assertFalse(SecretGrants.reads(syncer.clusterWide()), () -> "syncer: " + syncer);
    for (String namespace : syncer.namespacesWithGrants()) {
      if (!namespace.equals(values.namespace())) {
        assertFalse(SecretGrants.reads(syncer.in(namespace)), () -> "syncer: " + syncer);
      }
    }
    for (String verb : SecretGrants.READ_VERBS) {
      assertTrue(
          SecretGrants.allows(syncer.in(values.namespace()), verb),
          () ->
              "the syncer must "
                  + verb
                  + " the Secrets of its cluster resource namespace: "
                  + syncer);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void syncerMayCreateAndPatchSecretsInEveryNamespace(ValueSet values) {
    SecretGrants syncer =
        SecretGrants.of(Renders.of(values), values.namespace(), values.syncerName());

    assertAll(
        () -> assertTrue(SecretGrants.allows(syncer.clusterWide(), "create"), syncer::toString),
        () -> assertTrue(SecretGrants.allows(syncer.clusterWide(), "patch"), syncer::toString),
        () ->
            assertFalse(
                SecretGrants.allows(syncer.clusterWide(), "delete"),
                () -> "the syncer never deletes a Secret: " + syncer));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void webhookReadsSecretsOnlyInTheInstallNamespace(ValueSet values) {
    SecretGrants webhook =
        SecretGrants.of(Renders.of(values), values.namespace(), values.webhookName());

    assertFalse(SecretGrants.reads(webhook.clusterWide()), () -> "webhook: " + webhook);
    for (String namespace : webhook.namespacesWithGrants()) {
      if (!namespace.equals(values.namespace())) {
        assertFalse(SecretGrants.reads(webhook.in(namespace)), () -> "webhook: " + webhook);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void admissionPolicyFailsClosedOnSecretWritesAndNamesTheSyncer(ValueSet values) {
    RenderedManifests manifests = Renders.of(values);

    JsonNode policy = manifests.pullSecrets("ValidatingAdmissionPolicy");
    JsonNode binding = manifests.pullSecrets("ValidatingAdmissionPolicyBinding");
    List<String> operations = new ArrayList<>();
    List<String> resources = new ArrayList<>();
    for (JsonNode rule :
        policy.path("spec").path("matchConstraints").path("resourceRules").values()) {
      operations.addAll(RenderedManifests.strings(rule.path("operations")));
      resources.addAll(RenderedManifests.strings(rule.path("resources")));
    }
    String policyText = policy.toString();
    assertAll(
        () -> assertEquals("Fail", policy.path("spec").path("failurePolicy").asString()),
        () ->
            assertEquals(
                RenderedManifests.name(policy), binding.path("spec").path("policyName").asString()),
        () ->
            assertEquals(
                List.of("Deny"),
                RenderedManifests.strings(binding.path("spec").path("validationActions"))),
        () -> assertTrue(resources.contains("secrets"), () -> "resources " + resources),
        () ->
            assertTrue(
                operations.containsAll(List.of("CREATE", "UPDATE")),
                () -> "operations " + operations),
        () -> assertFalse(operations.contains("*"), () -> "operations " + operations),
        () ->
            assertEquals(
                "request.operation != 'DELETE' || request.userInfo.username =="
                    + " 'system:serviceaccount:"
                    + values.namespace()
                    + ":"
                    + values.syncerName()
                    + "'",
                policy.path("spec").path("matchConditions").get(0).path("expression").asString(),
                "only this release's syncer's deletions are checked (and refused)"),
        () ->
            assertFalse(
                policy.path("spec").path("matchConditions").isEmpty(),
                "matchConditions keep every other Secret write away from a fail-closed policy"),
        () ->
            assertTrue(
                policyText.contains(values.syncerName()) && policyText.contains(values.namespace()),
                "the policy names this release's syncer in this namespace"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void everyObjectOfTheTemplatesCarriesTheCommonLabels(ValueSet values) {
    RenderedManifests manifests = Renders.of(values);

    for (String kind :
        List.of("ServiceAccount", "Deployment", "Service", "MutatingWebhookConfiguration")) {
      for (JsonNode object : manifests.ofKind(kind)) {
        JsonNode labels = object.path("metadata").path("labels");
        assertAll(
            kind + " " + RenderedManifests.name(object),
            () -> assertEquals("kuik", labels.path("app.kubernetes.io/name").asString()),
            () ->
                assertEquals(
                    values.release(), labels.path("app.kubernetes.io/instance").asString()),
            () -> assertEquals("Helm", labels.path("app.kubernetes.io/managed-by").asString()),
            () -> assertTrue(labels.path("helm.sh/chart").asString("").startsWith("kuik-")),
            () -> assertFalse(labels.path("app.kubernetes.io/version").asString("").isEmpty()));
      }
    }
  }

  static List<String> args(JsonNode deployment) {
    return RenderedManifests.strings(container(deployment).path("args"));
  }

  static JsonNode podSpec(JsonNode deployment) {
    return deployment.path("spec").path("template").path("spec");
  }

  static JsonNode container(JsonNode deployment) {
    JsonNode containers = podSpec(deployment).path("containers");
    assertEquals(
        1, containers.size(), () -> RenderedManifests.name(deployment) + " runs one container");
    return containers.path(0);
  }

  static int port(JsonNode container, String name) {
    for (JsonNode port : container.path("ports").values()) {
      if (name.equals(port.path("name").asString())) {
        return port.path("containerPort").asInt();
      }
    }
    throw new AssertionError("no port named " + name);
  }

  static List<String> excludedNamespaces(JsonNode webhook) {
    for (JsonNode expression :
        webhook.path("namespaceSelector").path("matchExpressions").values()) {
      if ("kubernetes.io/metadata.name".equals(expression.path("key").asString())
          && "NotIn".equals(expression.path("operator").asString())) {
        return RenderedManifests.strings(expression.path("values"));
      }
    }
    return List.of();
  }

  private static Set<String> difference(Set<String> expected, Set<String> actual) {
    Set<String> missing = new TreeSet<>(expected);
    missing.removeAll(actual);
    return missing;
  }
}
