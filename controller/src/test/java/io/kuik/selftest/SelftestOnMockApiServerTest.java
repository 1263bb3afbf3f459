package io.kuik.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.mockwebserver.http.MockResponse;
import io.kuik.cli.Main;
import io.kuik.kube.DryRunDispatcher;
import io.kuik.kube.MockCluster;
import io.kuik.kube.RbacDispatcher;
import io.kuik.model.RewriteAnnotations;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code kuik selftest}, the command line, against fabric8's mock API server under the chart's
 * selftest RBAC (chart/files/selftest-rbac.yaml, the ServiceAccount {@code kuik-selftest}). The
 * mock stores whatever it is sent, {@code dryRun} or not; {@link DryRunDispatcher} makes it honour
 * {@code dryRun=All} as the API server does (admission runs, nothing is stored). Two admission
 * steps stand in for the cluster's: the chart's policy refusing a {@code kuik-inject-*} Secret to
 * anyone but the syncer, while the policy object is stored, and the pod webhook rewriting {@code
 * quay.io/acme/app} in {@code team-a}.
 */
class SelftestOnMockApiServerTest {

  private static final String POLICY_PATH =
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/kuik-pull-secrets";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** What templates/selftest.yaml adds with selftest.podCheck.namespace=team-a. */
  private static final String POD_CHECK_BINDING =
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: RoleBinding
      metadata: {name: kuik-selftest-pod-check, namespace: team-a}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: kuik-selftest-pod-check}
      subjects:
        - {kind: ServiceAccount, name: kuik-selftest, namespace: kuik-system}
      """;

  private DryRunDispatcher dryRun;
  private MockCluster cluster;
  private KubernetesClient admin;
  private HttpServer health;
  private final AtomicInteger readyzStatus = new AtomicInteger(200);

  @BeforeEach
  void install() throws IOException {
    cluster =
        MockCluster.underChartRbac(
            "files/selftest-rbac.yaml",
            "selftest",
            POD_CHECK_BINDING,
            crud -> {
              dryRun = new DryRunDispatcher(crud);
              return dryRun.admit(this::policy).admit(SelftestOnMockApiServerTest::webhook);
            });
    admin = cluster.client();
    for (String namespace : List.of("kuik-system", "team-a")) {
      admin
          .resource(
              new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
    }
    admin.resource(FakeSelftestCluster.policy("kuik", "Fail")).create();
    admin.resource(FakeSelftestCluster.binding("kuik-pull-secrets", "Deny")).create();
    admin.resource(FakeSelftestCluster.deployment("kuik-secret-syncer", 2, 2)).create();
    admin.resource(FakeSelftestCluster.deployment("kuik-webhook", 2, 1)).create();
    health = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    health.createContext(
        "/readyz",
        exchange -> {
          byte[] body = "informers synced".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(readyzStatus.get(), body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    health.start();
  }

  @AfterEach
  void close() {
    health.stop(0);
    cluster.close();
  }

  /** The chart's policy, reduced to what the selftest asks of it, while it is installed. */
  private MockResponse policy(String collection, ObjectNode object, boolean dryRunRequested) {
    String name = object.path("metadata").path("name").asString("");
    if (!collection.endsWith("/secrets")
        || !name.startsWith("kuik-inject-")
        || dryRun.stored(POLICY_PATH).isMissingNode()) {
      return null;
    }
    return DryRunDispatcher.status(
        403,
        "Forbidden",
        "secrets \""
            + name
            + "\" is forbidden: ValidatingAdmissionPolicy 'kuik-pull-secrets' with binding"
            + " 'kuik-pull-secrets' denied request: Secrets named kuik-inject-* and kuik-provider-*"
            + " are written only by the kuik secret-syncer");
  }

  /** The pod webhook: quay.io/acme/app goes to its alternative, with the resource's Secret. */
  private static MockResponse webhook(String collection, ObjectNode pod, boolean dryRunRequested) {
    if (!collection.equals("/api/v1/namespaces/team-a/pods")) {
      return null;
    }
    ObjectNode container = (ObjectNode) pod.path("spec").path("containers").get(0);
    String image = container.path("image").asString();
    if (image.startsWith("quay.io/acme/app:")) {
      container.put("image", "registry.example.com/acme/app:" + image.split(":")[1]);
      ((ObjectNode) pod.path("metadata"))
          .putObject("annotations")
          .put(
              RewriteAnnotations.REWRITTEN_BY,
              RewriteAnnotations.writeMap(Map.of("selftest", "ImageAlternative/acme")));
      ArrayNode secrets = ((ObjectNode) pod.path("spec")).putArray("imagePullSecrets");
      secrets.addObject().put("name", "kuik-inject-imagealternative-acme");
    }
    return null;
  }

  record Run(int exitCode, String out, String err) {}

  private Run selftest(String... more) {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "selftest",
            "--release=kuik",
            "--cluster-resource-namespace=kuik-system",
            "--syncer-readyz=http://127.0.0.1:" + health.getAddress().getPort() + "/readyz",
            "--webhook-readyz=http://127.0.0.1:" + health.getAddress().getPort() + "/readyz"));
    args.addAll(List.of(more));
    CommandLine kuik = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    kuik.setOut(new PrintWriter(out, true));
    kuik.setErr(new PrintWriter(err, true));
    int code = kuik.execute(args.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  private static String row(Run run, String check) {
    return run.out()
        .lines()
        .filter(line -> line.startsWith(check + " "))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row " + check + " in\n" + run.out()));
  }

  @Test
  void aWorkingReleasePassesUnderTheChartsRbacAndLeavesNothingBehind() {
    Run run = selftest("--pod-namespace=team-a", "--image=quay.io/acme/app:1");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertTrue(run.out().endsWith("selftest passed\n"), run.out());
    assertTrue(row(run, "reserved-names").contains("pass    a dry-run create of"), run.out());
    assertTrue(row(run, "webhook-ready").contains("1 of 2 replicas available"), run.out());
    assertTrue(row(run, "webhook-ready").contains("answered 200"), run.out());
    assertTrue(
        row(run, "pod-rewritten").contains("referencing kuik-inject-imagealternative-acme"),
        run.out());
    // Nothing was stored: neither the reserved Secret nor the pod.
    assertNull(admin.secrets().inNamespace("kuik-system").withName("kuik-inject-selftest").get());
    assertEquals(List.of(), admin.pods().inNamespace("team-a").list().getItems());
    assertEquals(2, dryRun.dryRuns().size(), dryRun.dryRuns().toString());
    // Reads and dry runs only, each one allowed by the chart's RBAC.
    List<RbacDispatcher.Observed> requests = cluster.serviceAccountRequests();
    assertFalse(requests.isEmpty());
    for (RbacDispatcher.Observed request : requests) {
      // The one refusal is the policy's, of the reserved name (reserved-names passed on it).
      boolean policyRefusal = request.code() == 403 && request.path().endsWith("/secrets");
      assertTrue(request.code() < 400 || policyRefusal, () -> "refused: " + request);
      String verb = request.verb();
      assertTrue(
          verb.equals("get")
              || verb.equals("list")
              || (verb.equals("create") && request.query().contains("dryRun=All")),
          () -> "neither a read nor a dry run: " + request + "?" + request.query());
    }
  }

  @Test
  void withoutThePolicyItFailsSayingWhy() {
    admin
        .admissionRegistration()
        .v1()
        .validatingAdmissionPolicies()
        .withName("kuik-pull-secrets")
        .delete();

    Run run = selftest();

    assertEquals(1, run.exitCode(), run.out());
    assertTrue(
        row(run, "policy").contains("fail    no ValidatingAdmissionPolicy kuik-pull-secrets"));
    assertTrue(row(run, "reserved-names").contains("fail    the API server admitted a dry-run"));
    assertTrue(run.out().endsWith("selftest FAILED: 2 checks failed\n"), run.out());
    assertNull(
        admin.secrets().inNamespace("kuik-system").withName("kuik-inject-selftest").get(),
        "an admitted dry run stores nothing either");
  }

  @Test
  void aRefusedCredentialFailsWithTheRegistrysAnswer() {
    GenericKubernetesResource acme =
        FakeSelftestCluster.withCredentials(
            "ImageAlternative",
            "acme",
            "False",
            "quay.io/acme/app: refused by quay.io (401 UNAUTHORIZED: authentication required)");
    var alternatives =
        admin.genericKubernetesResources(
            new ResourceDefinitionContext.Builder()
                .withGroup("kuik.enix.io")
                .withVersion("v1alpha1")
                .withKind("ImageAlternative")
                .withPlural("imagealternatives")
                .withNamespaced(false)
                .build());
    alternatives.resource(acme).create();
    // The API server drops the status of a create; the syncer applies it on the subresource.
    alternatives
        .resource(acme)
        .subresource("status")
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.SERVER_SIDE_APPLY)
                .withFieldManager("kuik-secret-syncer-status")
                .withForce(true)
                .build());

    Run run = selftest("-o", "json");

    assertEquals(1, run.exitCode(), run.out());
    JsonNode report = JSON.readTree(run.out());
    assertFalse(report.get("passed").asBoolean());
    JsonNode credentials = report.get("checks").get(6);
    assertEquals("credentials", credentials.get("check").asString());
    assertEquals("fail", credentials.get("result").asString());
    assertTrue(
        credentials
            .get("why")
            .asString()
            .contains("ImageAlternative/acme: quay.io/acme/app: refused"),
        credentials.toString());
  }

  @Test
  void aComponentWhoseReadyzFailsFails() {
    readyzStatus.set(503);

    Run run = selftest();

    assertEquals(1, run.exitCode(), run.out());
    assertTrue(row(run, "syncer-ready").contains("answered 503: informers synced"), run.out());
  }

  @Test
  void aPodTheWebhookLeavesAloneFails() {
    Run run = selftest("--pod-namespace=team-a", "--image=docker.io/library/nginx:1.27");

    assertEquals(1, run.exitCode(), run.out());
    assertTrue(row(run, "pod-rewritten").contains("came back unchanged"), run.out());
  }

  @Test
  void theOldSpellingOfThePodCheckStillChecksThePodWithANote() {
    Run run = selftest("--namespace=team-a", "--image=docker.io/library/nginx:1.27");

    assertEquals(1, run.exitCode(), run.out());
    assertTrue(row(run, "pod-rewritten").contains("came back unchanged"), run.out());
    assertTrue(run.err().contains("deprecated: --namespace with --image"), run.err());
    assertTrue(run.err().contains("--pod-namespace team-a"), run.err());
  }

  @Test
  void namespaceNamesTheReleasesNamespaceAsInHelmAndKubectl() {
    assertEquals("elsewhere", settings("selftest", "-n", "elsewhere").namespace());
    assertEquals("elsewhere", settings("selftest", "--namespace=elsewhere").namespace());
    assertEquals(2, selftest("--namespace=elsewhere").exitCode(), "two namespaces given");
  }

  private static io.kuik.selftest.SelftestSettings settings(String... args) {
    CommandLine kuik = Main.commandLine();
    kuik.parseArgs(args);
    CommandLine selftest = kuik.getSubcommands().get("selftest");
    return ((io.kuik.cli.SelftestCommand) selftest.getCommand()).settings();
  }

  @Test
  void aBadCommandLineExitsTwoSayingWhatIsWrong() {
    assertEquals(2, selftest("--pod-namespace=team-a").exitCode());
    assertTrue(
        selftest("--pod-namespace=team-a")
            .err()
            .contains("--pod-namespace and --image go together"));
    assertEquals(2, selftest("--pod-namespace=kuik-system", "--image=nginx").exitCode());
    assertEquals(2, selftest("-o", "yaml").exitCode());
    assertEquals(2, selftest("--syncer-readyz=ftp://x").exitCode());
  }

  @Test
  void helpExplainsEveryCheckAndTheExitCodes() {
    Run run = selftest("--help");

    assertEquals(0, run.exitCode());
    for (String words :
        List.of(
            "policy-binding",
            "reserved-names",
            "pod-rewritten",
            "credentials",
            "dryRun=All",
            "1   a check failed")) {
      assertTrue(run.out().contains(words), () -> words + " missing from\n" + run.out());
    }
  }
}
