package io.kuik.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kuik.kube.MockCluster;
import io.kuik.selftest.SelftestCluster.PodReadyz;
import io.kuik.selftest.SelftestCluster.Read;
import io.kuik.selftest.SelftestCluster.Readyz;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What {@code kuik selftest} asks a component's pods when its Deployment has no available replica
 * (docs/cli.md: why it is not ready): each pod of the Deployment's selector, at most three, on its
 * container port named {@code health}, through fabric8's mock API server and local HTTP servers
 * standing in for the pods.
 */
class FabricSelftestClusterTest {

  private final MockCluster cluster = new MockCluster();
  private final FabricSelftestCluster selftest = new FabricSelftestCluster(cluster.client());
  private final HttpServer ready = server(200, "");
  private final HttpServer notReady = server(503, "informers not synced: pods");

  @AfterEach
  void close() {
    ready.stop(0);
    notReady.stop(0);
    cluster.close();
  }

  @Test
  void eachPodOfTheSelectorIsAskedOnItsHealthPortAndSaysWhyNot() {
    pod("a-ready", "127.0.0.1", port("health", ready), Map.of("app", "syncer"));
    pod("b-not-ready", "127.0.0.1", port("health", notReady), Map.of("app", "syncer"));
    pod("c-no-ip", null, port("health", ready), Map.of("app", "syncer"));
    pod("d-no-health-port", "127.0.0.1", port("metrics", ready), Map.of("app", "syncer"));
    pod("e-another-app", "127.0.0.1", port("health", ready), Map.of("app", "webhook"));

    Read<List<PodReadyz>> asked = selftest.podsReadyz("kuik-system", deployment(true));

    assertTrue(asked.isFound(), asked.toString());
    Map<String, Readyz> byPod = new TreeMap<>();
    asked.object().forEach(p -> byPod.put(p.pod(), p.readyz()));
    assertEquals(3, byPod.size(), "three pods at most: " + byPod);
    assertEquals(Readyz.ready(), byPod.get("a-ready"));
    assertEquals(Readyz.notReady(503, "informers not synced: pods"), byPod.get("b-not-ready"));
    assertEquals(Readyz.unreachable("no address yet"), byPod.get("c-no-ip"));
  }

  @Test
  void aPodWithoutAHealthPortHasNoAddressToAsk() {
    pod("d-no-health-port", "127.0.0.1", port("metrics", ready), Map.of("app", "syncer"));
    pod("e-no-ports", "127.0.0.1", null, Map.of("app", "syncer"));

    Read<List<PodReadyz>> asked = selftest.podsReadyz("kuik-system", deployment(true));

    assertEquals(
        List.of(
            new PodReadyz("d-no-health-port", Readyz.unreachable("no address yet")),
            new PodReadyz("e-no-ports", Readyz.unreachable("no address yet"))),
        asked.object());
  }

  @Test
  void aDeploymentWithoutASelectorHasNoPodsToAsk() {
    pod("a-ready", "127.0.0.1", port("health", ready), Map.of("app", "syncer"));

    assertTrue(selftest.podsReadyz("kuik-system", deployment(false)).isMissing());
  }

  @Test
  void aReadyzThatDoesNotAnswerIsUnreachableWithWhy() throws IOException {
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }

    Readyz answer = selftest.readyz(URI.create("http://127.0.0.1:" + closed + "/readyz"));

    assertEquals(Readyz.State.UNREACHABLE, answer.state());
    assertTrue(answer.detail().startsWith("ConnectException"), answer.detail());
  }

  private static HttpServer server(int status, String body) {
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext(
          "/readyz",
          exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
          });
      server.start();
      return server;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static ContainerPort port(String name, HttpServer server) {
    return new ContainerPortBuilder()
        .withName(name)
        .withContainerPort(server.getAddress().getPort())
        .build();
  }

  private void pod(String name, String ip, ContainerPort port, Map<String, String> labels) {
    cluster
        .client()
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("kuik-system")
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("kuik")
                .withImage("kuik:1")
                .withPorts(port == null ? List.of() : List.of(port))
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPodIP(ip)
                .endStatus()
                .build())
        .create();
  }

  private static Deployment deployment(boolean withSelector) {
    DeploymentBuilder builder =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("kuik-secret-syncer")
            .withNamespace("kuik-system")
            .endMetadata();
    return withSelector
        ? builder
            .withNewSpec()
            .withNewSelector()
            .withMatchLabels(Map.of("app", "syncer"))
            .endSelector()
            .endSpec()
            .build()
        : builder.withNewSpec().endSpec().build();
  }
}
