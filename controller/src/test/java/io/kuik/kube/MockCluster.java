package io.kuik.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.function.Function;

/**
 * A fabric8 mock API server in CRUD mode with server-side apply, serving both routing kinds, and a
 * kubeconfig file pointing at it. While it is open, the {@code kubeconfig} system property names
 * that file, so a client built the way the syncer builds one ({@code new
 * KubernetesClientBuilder()}) talks to this server.
 *
 * <p>{@link #underSyncerRbac()} puts the server behind the chart's RBAC for the syncer's
 * ServiceAccount, which the kubeconfig's token then stands for, and records every request.
 */
public final class MockCluster implements AutoCloseable {

  /** The release the chart's RBAC is rendered for: {@code helm install kuik -n kuik-system}. */
  public static final String RELEASE = "kuik";

  private static final String TOKEN = "not-a-secret";

  /** The chart's admission policy and binding for {@link #RELEASE}. */
  static final String POLICY = RELEASE + "-pull-secrets";

  private final KubernetesMockServer server;
  private final ServerSideApplyDispatcher dispatcher;
  private final KubernetesClient client;
  private final Path kubeconfig;
  private final String previousKubeconfig;
  private final RbacDispatcher rbac;

  /** Every request is allowed; the chart's admission policy and binding are installed. */
  public MockCluster() {
    this(crudWithApply(), null);
    installAdmissionPolicy();
  }

  /** Every request is allowed, and the chart's admission policy is not installed (yet). */
  public static MockCluster withoutAdmissionPolicy() {
    return new MockCluster(crudWithApply(), null);
  }

  /**
   * The kubeconfig's identity is the syncer's ServiceAccount {@code kuik-secret-syncer} in {@link
   * ClusterFixtures#INSTALL_NAMESPACE}, held to chart/files/syncer-rbac.yaml as a cluster holds it.
   */
  public static MockCluster underSyncerRbac() {
    return underSyncerRbac(List.of("files/syncer-rbac.yaml"));
  }

  /** The same, with the grants of the chart's pullSecretFirst.enabled too. */
  public static MockCluster underSyncerRbacWithPullSecretFirst() {
    return underSyncerRbac(List.of("files/syncer-rbac.yaml", "files/pull-secret-first.yaml"));
  }

  private static MockCluster underSyncerRbac(List<String> files) {
    ServerSideApplyDispatcher crud = crudWithApply();
    MockCluster cluster =
        new MockCluster(
            crud,
            new RbacDispatcher(
                crud,
                ChartRbac.load(files, RELEASE, ClusterFixtures.INSTALL_NAMESPACE),
                TOKEN,
                "system:serviceaccount:"
                    + ClusterFixtures.INSTALL_NAMESPACE
                    + ":"
                    + RELEASE
                    + "-secret-syncer"));
    cluster.installAdmissionPolicy();
    return cluster;
  }

  /**
   * The release's ValidatingAdmissionPolicy and its binding, as the chart names them ({@code
   * kuik-pull-secrets}, what the syncer reads by default): this fake server does not enforce them,
   * but the syncer writes only while they exist.
   */
  public void installAdmissionPolicy() {
    installAdmissionPolicy(client);
  }

  /**
   * The same, on any API server the client reaches (the scale harness's own mock); with the
   * pod-gates policy and binding of pull secret first ({@code kuik-pod-gates}), which the syncer
   * releasing gates and the webhook gating pods wait for.
   */
  public static void installAdmissionPolicy(KubernetesClient client) {
    installPolicy(client, POLICY);
    installPolicy(client, POD_GATES_POLICY);
  }

  /** The pod-gates policy's name the chart gives it for the release {@code kuik}. */
  public static final String POD_GATES_POLICY = "kuik-pod-gates";

  private static void installPolicy(KubernetesClient client, String name) {
    client
        .admissionRegistration()
        .v1()
        .validatingAdmissionPolicies()
        .resource(
            new io.fabric8.kubernetes.api.model.admissionregistration.v1
                    .ValidatingAdmissionPolicyBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withFailurePolicy("Fail")
                .endSpec()
                .build())
        .createOr(existing -> existing.update());
    client
        .admissionRegistration()
        .v1()
        .validatingAdmissionPolicyBindings()
        .resource(
            new io.fabric8.kubernetes.api.model.admissionregistration.v1
                    .ValidatingAdmissionPolicyBindingBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withPolicyName(name)
                .withValidationActions("Deny")
                .endSpec()
                .build())
        .createOr(existing -> existing.update());
  }

  /** Deletes the policy itself, as an uninstall or a person would. */
  public void deleteAdmissionPolicy() {
    client.admissionRegistration().v1().validatingAdmissionPolicies().withName(POLICY).delete();
  }

  /**
   * Another replica renews the Lease {@code namespace/name} as {@code holder}'s for an hour, as one
   * that judged it expired would: its holder loses it at its next renewal.
   */
  public void takeLeaseOver(String namespace, String name, String holder) {
    client
        .leases()
        .inNamespace(namespace)
        .withName(name)
        .edit(
            lease -> {
              lease.getSpec().setHolderIdentity(holder);
              lease.getSpec().setRenewTime(java.time.ZonedDateTime.now().plusHours(1));
              lease.getSpec().setLeaseDurationSeconds(3600);
              return lease;
            });
  }

  /** Deletes the policy's binding, as an uninstall or a person would. */
  public void deleteAdmissionPolicyBinding() {
    client
        .admissionRegistration()
        .v1()
        .validatingAdmissionPolicyBindings()
        .withName(POLICY)
        .delete();
  }

  /**
   * The kubeconfig's identity is the ServiceAccount {@code <release>-<account>} of {@link
   * ClusterFixtures#INSTALL_NAMESPACE}, held to the chart's RBAC file {@code file}; {@code inner}
   * wraps the CRUD dispatcher behind RBAC (to honour {@code dryRun}, say). {@code moreRbac}: RBAC
   * documents a template of the chart would add from its values.
   */
  public static MockCluster underChartRbac(
      String file,
      String account,
      String moreRbac,
      Function<ServerSideApplyDispatcher, Dispatcher> inner) {
    ServerSideApplyDispatcher crud = crudWithApply();
    return new MockCluster(
        crud,
        new RbacDispatcher(
            inner.apply(crud),
            ChartRbac.load(file, RELEASE, ClusterFixtures.INSTALL_NAMESPACE, moreRbac),
            TOKEN,
            "system:serviceaccount:"
                + ClusterFixtures.INSTALL_NAMESPACE
                + ":"
                + RELEASE
                + "-"
                + account));
  }

  private MockCluster(ServerSideApplyDispatcher dispatcher, RbacDispatcher rbac) {
    this.dispatcher = dispatcher;
    this.rbac = rbac;
    server =
        new KubernetesMockServer(
            new Context(), webServer(), new HashMap<>(), rbac != null ? rbac : dispatcher, false);
    server.init();
    client = server.createClient();
    kubeconfig = writeKubeconfig(server.url("/"));
    previousKubeconfig = System.setProperty("kubeconfig", kubeconfig.toString());
  }

  /**
   * The mock API server's HTTP server, speaking HTTP/1.1 only. The JDK client that fabric8 uses
   * offers {@code Upgrade: h2c} on plain HTTP and Vert.x accepts it; on large bodies (a list of
   * malformed resources) the upgraded connection now and then misreads a body as HTTP/2 frames
   * ("Frame type(97) length(6381921) exceeds MAX_FRAME_SIZE"). A real API server is reached over
   * TLS, where HTTP/2 is chosen by ALPN and no upgrade happens; the switch is fabric8's own answer
   * to the same flake (https://github.com/fabric8io/kubernetes-client/pull/7662).
   */
  public static MockWebServer webServer() {
    MockWebServer server = new MockWebServer();
    server.setHttp2ClearTextEnabled(false);
    return server;
  }

  /** The API server's address by IP, for a process that resolves no names (the image's root). */
  public String url() {
    return "http://127.0.0.1:" + server.getPort();
  }

  private static ServerSideApplyDispatcher crudWithApply() {
    return ServerSideApplyDispatcher.withRoutingKinds();
  }

  /**
   * The requests the ServiceAccount made so far (the test's own client left out).
   *
   * @throws IllegalStateException when this cluster is not under RBAC
   */
  public List<RbacDispatcher.Observed> serviceAccountRequests() {
    if (rbac == null) {
      throw new IllegalStateException("this mock cluster records nothing: use underSyncerRbac()");
    }
    return rbac.observed().stream().filter(RbacDispatcher.Observed::byServiceAccount).toList();
  }

  /** A client of the test's own, for arranging the cluster and reading what the syncer wrote. */
  public KubernetesClient client() {
    return client;
  }

  /** The path and query of every server-side apply the server received, in order. */
  public List<String> applies() {
    return dispatcher.applies();
  }

  /** From now on, applies in {@code namespace} are refused with 403 Forbidden. */
  public void refuseAppliesIn(String namespace) {
    dispatcher.refuseAppliesIn(namespace);
  }

  /** From now on, every list of {@code resource} (a plural) is answered {@code delay} late. */
  public void slowListsOf(String resource, java.time.Duration delay) {
    dispatcher.slowListsOf(resource, delay);
  }

  /** The kubeconfig file naming this server, for processes of their own. */
  public Path kubeconfig() {
    return kubeconfig;
  }

  @Override
  public void close() {
    if (previousKubeconfig == null) {
      System.clearProperty("kubeconfig");
    } else {
      System.setProperty("kubeconfig", previousKubeconfig);
    }
    client.close();
    try {
      server.destroy();
    } catch (IllegalStateException slowShutdown) {
      // "Unable to close MockWebServer": its shutdown waits a bounded time for connections that a
      // stopped watch leaves behind, which a busy machine can exceed after the test has passed;
      // the server is stopping either way and its port is not reused.
    }
    try {
      Files.deleteIfExists(kubeconfig);
    } catch (IOException ignored) {
      // a temporary file; the OS cleans it up
    }
  }

  private static Path writeKubeconfig(String url) {
    String server = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    String text =
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: mock",
            "  cluster:",
            "    server: " + server,
            "contexts:",
            "- name: mock",
            "  context:",
            "    cluster: mock",
            "    user: mock",
            "    namespace: default",
            "current-context: mock",
            "users:",
            "- name: mock",
            "  user:",
            "    token: " + TOKEN,
            "");
    try {
      Path file = Files.createTempFile("kuik-mock-kubeconfig", ".yaml");
      Files.writeString(file, text);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
