package io.kuik.explain;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.kuik.kube.MockCluster;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.ImageMirror;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * fabric8's CRUD mock API server, serving both routing kinds, that answers 403 Forbidden (as RBAC
 * does) to the requests a test forbids, and records every request's method and path so a test can
 * show that explain only reads. While open, the {@code kubeconfig} system property names a
 * kubeconfig pointing at it.
 */
final class ReadOnlyMockCluster implements AutoCloseable {

  private final List<Predicate<String>> forbidden = new CopyOnWriteArrayList<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final KubernetesMockServer server;
  private final KubernetesClient client;
  private final Path kubeconfig;
  private final String previous;

  ReadOnlyMockCluster() {
    server =
        new KubernetesMockServer(
            new Context(),
            MockCluster.webServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(
                List.of(
                    CustomResourceDefinitionContext.fromCustomResourceType(ImageAlternative.class),
                    CustomResourceDefinitionContext.fromCustomResourceType(ImageMirror.class))) {
              @Override
              public MockResponse dispatch(RecordedRequest request) {
                String path = request.getPath();
                if (path.startsWith("/api") && !path.equals("/api") && !path.equals("/apis")) {
                  requests.add(request.getMethod() + " " + path);
                }
                String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
                if (forbidden.stream().anyMatch(p -> p.test(bare))) {
                  return new MockResponse()
                      .setResponseCode(403)
                      .setBody(
                          "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                              + "\"reason\":\"Forbidden\",\"code\":403,\"message\":\"forbidden\"}");
                }
                return super.dispatch(request);
              }
            },
            false);
    server.init();
    client = server.createClient();
    kubeconfig = writeKubeconfig(server.url("/"));
    previous = System.setProperty("kubeconfig", kubeconfig.toString());
  }

  /** From now on, requests whose path (query aside) starts with {@code prefix} get 403. */
  void forbid(String prefix) {
    forbidden.add(path -> path.startsWith(prefix));
  }

  /** From now on, requests of exactly this path (query aside) get 403. */
  void forbidOnly(String path) {
    forbidden.add(path::equals);
  }

  void put(HasMetadata object) {
    client.resource(object).create();
  }

  KubernetesClient client() {
    return client;
  }

  /** The API requests made since the last call, as {@code METHOD path}; then forgets them. */
  List<String> takeRequests() {
    List<String> taken = new ArrayList<>(requests);
    requests.clear();
    return taken;
  }

  @Override
  public void close() {
    if (previous == null) {
      System.clearProperty("kubeconfig");
    } else {
      System.setProperty("kubeconfig", previous);
    }
    client.close();
    server.destroy();
    try {
      Files.deleteIfExists(kubeconfig);
    } catch (IOException ignored) {
      // a temporary file
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
            "  cluster: {server: " + server + "}",
            "contexts:",
            "- name: mock",
            "  context: {cluster: mock, user: mock, namespace: default}",
            "current-context: mock",
            "users:",
            "- name: mock",
            "  user: {token: not-a-secret}",
            "");
    try {
      Path file = Files.createTempFile("kuik-explain-kubeconfig", ".yaml");
      Files.writeString(file, text);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
