package io.kuik.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.ImageMirror;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;

/**
 * A fabric8 mock API server in CRUD mode with server-side apply, serving both routing kinds, and a
 * kubeconfig file pointing at it. While it is open, the {@code kubeconfig} system property names
 * that file, so a client built the way the syncer builds one ({@code new
 * KubernetesClientBuilder()}) talks to this server.
 */
public final class MockCluster implements AutoCloseable {

  private final KubernetesMockServer server;
  private final KubernetesClient client;
  private final Path kubeconfig;
  private final String previousKubeconfig;

  public MockCluster() {
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new ServerSideApplyDispatcher(
                List.of(
                    CustomResourceDefinitionContext.fromCustomResourceType(ImageAlternative.class),
                    CustomResourceDefinitionContext.fromCustomResourceType(ImageMirror.class))),
            false);
    server.init();
    client = server.createClient();
    kubeconfig = writeKubeconfig(server.url("/"));
    previousKubeconfig = System.setProperty("kubeconfig", kubeconfig.toString());
  }

  /** The kubeconfig file that points at this server, e.g. for a process of its own. */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /** A client of the test's own, for arranging the cluster and reading what the syncer wrote. */
  public KubernetesClient client() {
    return client;
  }

  @Override
  public void close() {
    if (previousKubeconfig == null) {
      System.clearProperty("kubeconfig");
    } else {
      System.setProperty("kubeconfig", previousKubeconfig);
    }
    client.close();
    server.destroy();
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
            "    token: not-a-secret",
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
