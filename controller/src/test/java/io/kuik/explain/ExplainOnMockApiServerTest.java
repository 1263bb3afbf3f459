package io.kuik.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kuik.cli.Main;
import io.kuik.model.DockerConfig;
import io.kuik.model.RegistryCredential;
import io.kuik.model.crd.ImageAlternative;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code kuik explain} against fabric8's mock API server, with the read-only RBAC it is documented
 * to need: reads of pods, namespaces and routing resources, and of the Secrets of the cluster
 * resource namespace only. Every other Secret read is refused with 403, as RBAC would refuse it.
 *
 * <p>The kubelet offers every key that matches an image, by its own rules: a key's path is a plain
 * string prefix of the image's path (kubernetes/kubernetes pkg/credentialprovider/keyring.go,
 * {@code URLsMatch}). The must-pass cases here are ones where that rule and a whole-segment rule
 * agree; {@link #aKuikKeyIsAlsoOfferedToARepositoryItIsAStringPrefixOf} is the one case that needs
 * the string-prefix rule itself.
 */
class ExplainOnMockApiServerTest {

  private final ReadOnlyMockCluster cluster = new ReadOnlyMockCluster();

  @AfterEach
  void close() {
    cluster.close();
  }

  record Run(int exitCode, String out, String err) {}

  static Run explain(String... args) {
    CommandLine kuik = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    kuik.setOut(new PrintWriter(out, true));
    kuik.setErr(new PrintWriter(err, true));
    String[] all = new String[args.length + 1];
    all[0] = "explain";
    System.arraycopy(args, 0, all, 1, args.length);
    return new Run(kuik.execute(all), out.toString(), err.toString());
  }

  // ---- the cluster -----------------------------------------------------------------------------

  /** Read-only RBAC: Secrets are readable in kuik-system only. */
  private void onlyClusterResourceNamespaceSecretsReadable() {
    cluster.forbid("/api/v1/namespaces/team-a/secrets");
    cluster.forbid("/api/v1/secrets");
  }

  private void put(String yaml, Class<? extends HasMetadata> type) {
    cluster.put(cluster.client().getKubernetesSerialization().unmarshal(yaml, type));
  }

  private void teamA() {
    put(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, labels: {tier: prod}}\n",
        Namespace.class);
  }

  /** Keys quay.io and quay.io/acme: the kubelet prefers quay.io/acme for quay.io/acme/app. */
  private void quayPull() {
    String config =
        new DockerConfig(
                Map.of(
                    "quay.io", RegistryCredential.basic("any", "p-any"),
                    "quay.io/acme", RegistryCredential.basic("acme", "p-acme")))
            .toJson();
    put(
        "apiVersion: v1\nkind: Secret\nmetadata: {name: quay-pull, namespace: kuik-system}\n"
            + "type: kubernetes.io/dockerconfigjson\ndata: {.dockerconfigjson: "
            + Base64.getEncoder().encodeToString(config.getBytes(StandardCharsets.UTF_8))
            + "}\n",
        Secret.class);
  }

  private void alternative(String policy, String original, String alternative) {
    put(
        """
        apiVersion: kuik.enix.io/v1alpha1
        kind: ImageAlternative
        metadata: {name: acme}
        spec:
          rewritePolicy: %s
          alternatives:
          - repository: %s
          - repository: %s
            auth: {secretRef: {name: quay-pull}}
        """
            .formatted(policy, original, alternative),
        ImageAlternative.class);
  }

  /** The Deployment team-a/web, one container {@code app} of that image. */
  private void webDeployment(String image) {
    put(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: team-a}
        spec:
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
              - {name: app, image: "%s"}
        """
            .formatted(image),
        Deployment.class);
  }

  /** As the webhook leaves it: container app rewritten, a sidecar left as it was. */
  private void rewrittenPod(String sidecarImage) {
    put(
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: web
          namespace: team-a
          labels:
            kuik.enix.io/images-rewritten: "true"
          annotations:
            kuik.enix.io/original-images: '{"app":"docker.io/acme/app:1.0"}'
            kuik.enix.io/rewritten-by: '{"app":"ImageAlternative/acme"}'
            kuik.enix.io/reason: '{"app":"docker.io/acme/app:1.0 unreachable; served by ImageAlternative/acme (spec.alternatives[1], OnFailure)"}'
        spec:
          containers:
          - {name: app, image: "quay.io/acme/app:1.0"}
          - {name: sidecar, image: "%s"}
          imagePullSecrets:
          - {name: kuik-inject-imagealternative-acme}
        """
            .formatted(sidecarImage),
        Pod.class);
  }

  // ---- explain pod
  // --------------------------------------------------------------------------------

  @Test
  void aRewrittenPodIsExplainedWithTheSecretItNeedsAndTheKeyTheKubeletOffers() {
    teamA();
    quayPull();
    alternative("OnFailure", "docker.io/acme/app", "quay.io/acme/app");
    rewrittenPod("docker.io/library/busybox:1.36");
    onlyClusterResourceNamespaceSecretsReadable();
    cluster.takeRequests();

    Run run = explain("pod", "team-a/web");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    String out = run.out();
    assertTrue(out.contains("  image:           quay.io/acme/app:1.0\n"), out);
    assertTrue(out.contains("  original image:  docker.io/acme/app:1.0\n"), out);
    assertTrue(
        out.contains(
            "  rewritten by:    ImageAlternative/acme spec.alternatives[1] (quay.io/acme/app)\n"),
        out);
    assertTrue(
        out.contains("  why:             docker.io/acme/app:1.0 unreachable; served by"), out);
    assertTrue(
        out.contains(
            "  pull secret:     kuik-inject-imagealternative-acme (referenced by the pod)\n"),
        out);
    assertTrue(
        out.contains(
            "      1. kuik-inject-imagealternative-acme key quay.io/acme/app (as the syncer writes"
                + " it now; from kuik-system/quay-pull: quay.io/acme)\n"),
        out);
    assertTrue(out.contains("  webhook now:     not probed: --probe asks the registries\n"), out);
    assertTrue(out.contains("      1. docker.io/acme/app:1.0  original\n"), out);
    assertTrue(
        out.contains(
            "      2. quay.io/acme/app:1.0  ImageAlternative/acme spec.alternatives[1] OnFailure\n"),
        out);
    assertTrue(
        out.contains(
            "cannot read Secret team-a/kuik-inject-imagealternative-acme (403 Forbidden): its keys"
                + " are those the syncer writes there now"),
        out);
    assertFalse(out.contains("p-acme") || out.contains("p-any"), "never a credential");
    assertFalse(out.contains("written for"), "busybox gets no kuik key: " + out);
    for (String request : cluster.takeRequests()) {
      assertTrue(request.startsWith("GET "), "explain only reads: " + request);
    }
  }

  @Test
  void aCredentialTheRegistryRefusedIsShownAndWarnedAboutFromTheResourcesStatus() {
    teamA();
    quayPull();
    alternative("OnFailure", "docker.io/acme/app", "quay.io/acme/app");
    rewrittenPod("docker.io/library/busybox:1.36");
    ImageAlternative acme =
        cluster.client().resources(ImageAlternative.class).withName("acme").get();
    acme.setStatus(
        new io.kuik.model.crd.RoutingResourceStatus(
            1L,
            1,
            List.of(),
            List.of(
                new io.kuik.model.crd.RoutingResourceStatus.CredentialStatus(
                    "quay.io/acme/app",
                    "quay.io",
                    "Refused",
                    "GET /v2/ with Basic answered 401 UNAUTHORIZED: authentication required",
                    "2026-01-01T00:00:00Z"))));
    cluster.client().resources(ImageAlternative.class).resource(acme).updateStatus();

    Run run = explain("pod", "team-a/web");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertTrue(
        run.out()
            .contains(
                "  credential:      REFUSED by quay.io (GET /v2/ with Basic answered 401"
                    + " UNAUTHORIZED: authentication required), tried 2026-01-01T00:00:00Z\n"),
        run.out());
    assertTrue(
        run.out()
            .contains(
                "container app: REFUSED by quay.io (GET /v2/ with Basic answered 401 UNAUTHORIZED:"
                    + " authentication required), tried 2026-01-01T00:00:00Z; a pull with"
                    + " kuik-inject-imagealternative-acme will fail"),
        run.out());
  }

  @Test
  void aCredentialTheSyncerHasNotTriedSaysSo() {
    teamA();
    quayPull();
    alternative("OnFailure", "docker.io/acme/app", "quay.io/acme/app");
    rewrittenPod("docker.io/library/busybox:1.36");

    Run run = explain("pod", "team-a/web");

    assertTrue(
        run.out().contains("  credential:      not tried yet by the syncer (the resource's status"),
        run.out());
  }

  @Test
  void aKuikKeyOfferedToAnImageBelowItsRepositoryIsWarnedAbout() {
    // The key quay.io/acme/app covers quay.io/acme/app/debug by whole segments and by string
    // prefix alike; the repository entry covers quay.io/acme/app alone.
    teamA();
    quayPull();
    alternative("OnFailure", "docker.io/acme/app", "quay.io/acme/app");
    rewrittenPod("quay.io/acme/app/debug:1");
    onlyClusterResourceNamespaceSecretsReadable();

    Run run = explain("pod", "team-a/web", "-o", "json");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertTrue(
        run.out()
            .contains(
                "container sidecar: the kubelet also offers kuik-inject-imagealternative-acme key"
                    + " quay.io/acme/app, written for ImageAlternative/acme spec.alternatives[1], to"
                    + " quay.io/acme/app/debug:1, an image it was not written for"),
        run.out());
  }

  /** The one case that needs the kubelet's string-prefix rule (keyring.go, URLsMatch). */
  @Test
  void aKuikKeyIsAlsoOfferedToARepositoryItIsAStringPrefixOf() {
    teamA();
    quayPull();
    alternative("OnFailure", "docker.io/acme/app", "quay.io/acme/app");
    rewrittenPod("quay.io/acme/app-debug:1");
    onlyClusterResourceNamespaceSecretsReadable();

    Run run = explain("pod", "team-a/web");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertTrue(
        run.out()
            .contains(
                "container sidecar: the kubelet also offers kuik-inject-imagealternative-acme key"
                    + " quay.io/acme/app, written for ImageAlternative/acme spec.alternatives[1], to"
                    + " quay.io/acme/app-debug:1, an image it was not written for"),
        run.out());
  }

  @Test
  void forbiddenSourceSecretsAreNamedAndTheEntryCountsAsLeftOut() {
    teamA();
    quayPull();
    alternative("OnFailure", "docker.io/acme/app", "quay.io/acme/app");
    rewrittenPod("docker.io/library/busybox:1.36");
    onlyClusterResourceNamespaceSecretsReadable();
    cluster.forbid("/api/v1/namespaces/kuik-system/secrets");

    Run run = explain("pod", "team-a/web");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    String out = run.out();
    assertTrue(
        out.contains(
            "cannot read Secret kuik-system/quay-pull (403 Forbidden): entries that use it count"
                + " as left out"),
        out);
    assertTrue(out.contains("ImageAlternative/acme PullSecretInjectionFailed"), out);
    assertTrue(out.contains("  kubelet offers:  nothing: an anonymous pull\n"), out);
  }

  @Test
  void aForbiddenNamespaceAndRoutingResourcesAreNamedAndExplainGoesOn() {
    teamA();
    rewrittenPod("docker.io/library/busybox:1.36");
    cluster.forbid("/api/v1/namespaces/team-a/secrets");
    cluster.forbidOnly("/api/v1/namespaces/team-a");
    cluster.forbid("/apis/kuik.enix.io");
    cluster.forbidOnly("/api/v1/namespaces/team-a/pods");

    Run run = explain("pod", "team-a/web");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    String out = run.out();
    assertTrue(out.contains("cannot read imagealternatives.kuik.enix.io (403 Forbidden)"), out);
    assertTrue(out.contains("cannot read imagemirrors.kuik.enix.io (403 Forbidden)"), out);
    assertTrue(out.contains("cannot read namespace team-a (403 Forbidden)"), out);
    assertTrue(out.contains("cannot read the pods of namespace team-a (403 Forbidden)"), out);
    assertTrue(out.contains("  namespace labels: (not readable)\n"), out);
    assertTrue(out.contains("  served by this syncer instance: unknown\n"), out);
    assertTrue(out.contains("  original image:  docker.io/acme/app:1.0\n"), out);
  }

  @Test
  void aPodThatCannotBeReadExitsOneAndABadTargetExitsTwo() {
    Run missing = explain("pod", "team-a/nope");
    assertEquals(1, missing.exitCode());
    assertTrue(missing.err().contains("pod team-a/nope not found"), missing.err());
    cluster.forbid("/api/v1/namespaces/team-b/pods");
    Run forbidden = explain("pod", "team-b/web");
    assertEquals(1, forbidden.exitCode());
    assertTrue(forbidden.err().contains("403 Forbidden"), forbidden.err());
    assertEquals(2, explain("pod", "no-slash").exitCode());
    assertEquals(2, explain("pod", "team-a/web", "-o", "xml").exitCode());
    assertEquals(2, explain().exitCode());
  }

  @Test
  void contextPicksTheClusterItReadsAndTheCurrentOneIsTheDefault(@TempDir Path home)
      throws IOException {
    teamA();
    quayPull();
    alternative("OnFailure", "docker.io/acme/app", "quay.io/acme/app");
    rewrittenPod("docker.io/library/busybox:1.36");
    String mock = cluster.client().getMasterUrl().toString().replaceAll("/$", "");
    Path kubeconfig = home.resolve("config");
    java.nio.file.Files.writeString(
        kubeconfig,
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- {name: mock, cluster: {server: " + mock + "}}",
            "- {name: elsewhere, cluster: {server: 'https://127.0.0.1:1'}}",
            "contexts:",
            "- {name: mock, context: {cluster: mock, user: u}}",
            "- {name: elsewhere, context: {cluster: elsewhere, user: u}}",
            "current-context: elsewhere",
            "users:",
            "- {name: u, user: {token: not-a-secret}}",
            ""));
    System.setProperty("kubeconfig", kubeconfig.toString());

    Run named = explain("pod", "--context", "mock", "team-a/web");
    Run current = explain("pod", "team-a/web");

    assertEquals(0, named.exitCode(), named.out() + named.err());
    assertTrue(named.out().startsWith("Pod team-a/web\n"), named.out());
    assertEquals(1, current.exitCode(), current.out() + current.err());
    assertTrue(current.err().contains("127.0.0.1:1"), "names the current context's server");
  }

  @Test
  void aFailedReadNamesTheApiServerAndTheKubeconfigItCameFrom() {
    Run missing = explain("pod", "team-a/nope");

    assertTrue(
        missing.err().contains("(API server " + cluster.client().getMasterUrl()), missing.err());
    assertTrue(missing.err().contains("(system property kubeconfig)"), missing.err());
  }

  @Test
  void aKubeconfigThatDoesNotExistIsNamedAndExitsOne() {
    String previous = System.setProperty("kubeconfig", "/nonexistent/kuik-kubeconfig");
    try {
      Run run = explain("pod", "team-a/web");

      assertEquals(1, run.exitCode());
      assertTrue(
          run.err()
              .contains(
                  "kubeconfig /nonexistent/kuik-kubeconfig (system property kubeconfig) does not"
                      + " exist"),
          run.err());
      assertEquals("", run.out());
    } finally {
      System.setProperty("kubeconfig", previous);
    }
  }

  @Test
  void withNoKubeconfigAtAllOutsideAPodItSaysWhereItLookedAndExitsOne(@TempDir Path home) {
    assumeTrue(System.getenv("KUBECONFIG") == null, "KUBECONFIG is set for this build");
    assumeTrue(System.getenv("KUBERNETES_SERVICE_HOST") == null, "running inside a pod");
    String kubeconfig = System.clearProperty("kubeconfig");
    String userHome = System.setProperty("user.home", home.toString());
    try {
      Run run = explain("pod", "team-a/web");

      assertEquals(1, run.exitCode());
      assertTrue(run.err().startsWith("kuik explain: no cluster: no kubeconfig"), run.err());
      assertTrue(run.err().contains("~/.kube/config missing, KUBECONFIG unset"), run.err());
    } finally {
      System.setProperty("kubeconfig", kubeconfig);
      System.setProperty("user.home", userHome);
    }
  }

  // ---- explain deployment, with --probe
  // -----------------------------------------------------------

  /**
   * Under OnFailure the Secret holds only what live pods need: for a template whose pods the
   * webhook would rewrite, explain counts the pod the template would give, so the kubelet's offer
   * is the key that pod would draw, before any pod exists.
   */
  @Test
  void anOnFailureDeploymentIsOfferedTheKeyItsFirstPodWouldDrawWithoutAPodYet() throws IOException {
    HttpServer registry = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    registry.createContext(
        "/v2/",
        exchange -> {
          exchange
              .getResponseHeaders()
              .add("Content-Type", "application/vnd.oci.image.manifest.v1+json");
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    registry.start();
    try (java.net.ServerSocket closed = new java.net.ServerSocket(0)) {
      String host = "127.0.0.1:" + registry.getAddress().getPort();
      String down = "127.0.0.1:" + closed.getLocalPort();
      closed.close(); // nothing listens there: the original is unreachable
      teamA();
      String config =
          new DockerConfig(Map.of(host + "/acme", RegistryCredential.basic("acme", "p-local")))
              .toJson();
      put(
          "apiVersion: v1\nkind: Secret\nmetadata: {name: quay-pull, namespace: kuik-system}\n"
              + "type: kubernetes.io/dockerconfigjson\ndata: {.dockerconfigjson: "
              + Base64.getEncoder().encodeToString(config.getBytes(StandardCharsets.UTF_8))
              + "}\n",
          Secret.class);
      alternative("OnFailure", down + "/acme/app", host + "/acme/app");
      webDeployment(down + "/acme/app:1.0");
      onlyClusterResourceNamespaceSecretsReadable();

      Run run = explain("deployment", "team-a/web", "--probe");

      assertEquals(0, run.exitCode(), run.out() + run.err());
      String out = run.out();
      assertTrue(out.contains("  image:           " + host + "/acme/app:1.0\n"), out);
      assertTrue(
          out.contains(
              "      1. kuik-inject-imagealternative-acme key "
                  + host
                  + "/acme/app (as the syncer writes it now; from kuik-system/quay-pull: "
                  + host
                  + "/acme)\n"),
          out);
      assertFalse(out.contains("p-local"), "never a credential");
    } finally {
      registry.stop(0);
    }
  }

  @Test
  void aDeploymentsTemplateIsRoutedWithTheProductionProberAgainstARegistry() throws IOException {
    HttpServer registry = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    Set<String> served = Set.of("/v2/acme/app/manifests/1.0");
    registry.createContext(
        "/v2/",
        exchange -> {
          int code = served.contains(exchange.getRequestURI().getPath()) ? 200 : 404;
          exchange
              .getResponseHeaders()
              .add("Content-Type", "application/vnd.oci.image.manifest.v1+json");
          exchange.sendResponseHeaders(code, -1);
          exchange.close();
        });
    registry.start();
    try {
      String host = "127.0.0.1:" + registry.getAddress().getPort();
      teamA();
      quayPull();
      alternative("Always", "docker.io/acme/app", host + "/acme/app");
      webDeployment("docker.io/acme/app:1.0");
      onlyClusterResourceNamespaceSecretsReadable();

      Run run = explain("deployment", "team-a/web", "--probe");

      assertEquals(0, run.exitCode(), run.out() + run.err());
      String out = run.out();
      assertTrue(out.startsWith("Deployment team-a/web\n"), out);
      assertTrue(out.contains("  image:           " + host + "/acme/app:1.0\n"), out);
      assertTrue(out.contains("  original image:  docker.io/acme/app:1.0\n"), out);
      assertTrue(
          out.contains(
              "  webhook now:     " + host + "/acme/app:1.0 (served by ImageAlternative/acme"),
          out);
      assertTrue(
          out.contains(
              "  pull secret:     kuik-inject-imagealternative-acme (referenced by the pod)"),
          out);
    } finally {
      registry.stop(0);
    }
  }

  @Test
  void everyFlagIsExplainedInTheHelp() {
    CommandLine explain = Main.commandLine().getSubcommands().get("explain");
    for (String target : List.of("pod", "deployment")) {
      CommandLine sub = explain.getSubcommands().get(target);
      String help = sub.getUsageMessage();
      for (OptionSpec option : sub.getCommandSpec().options()) {
        assertTrue(option.description().length > 0, target + " " + option.longestName());
        assertTrue(help.contains(option.longestName()), target + " " + option.longestName());
      }
      assertTrue(help.contains("<namespace>/<name>"), help);
    }
  }
}
