package io.kuik.sim.chart.helm;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API server Helm's {@code lookup} reads while the chart tests render: Secrets only, on
 * loopback, empty unless a test stores one.
 *
 * <p>Helm's library renders as {@code helm install --dry-run} does: {@code lookup} asks the cluster
 * of the kubeconfig, where {@code helm template} would answer an empty map. So the tests give it a
 * cluster of their own. Surefire points {@code KUBECONFIG} at a file under {@code target} (see
 * simulator/pom.xml), which this class writes; it never reaches a cluster of the developer's own
 * kubeconfig. An empty cluster renders as {@code helm template} does (a new CA on each render); a
 * test that stores the release's Secret sees what {@code helm upgrade} would.
 *
 * <p>It answers the two requests a {@code lookup} of a Secret sends: the discovery of {@code v1}
 * (https://kubernetes.io/docs/reference/using-api/api-concepts/#discovery-apis) and a GET of the
 * Secret, 404 with a {@code NotFound} Status when absent, which {@code lookup} turns into an empty
 * map.
 */
final class LookupCluster {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String SECRETS_PREFIX = "/api/v1/namespaces/";
  private static final String DISCOVERY =
      """
      {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[
        {"name":"secrets","singularName":"secret","namespaced":true,"kind":"Secret",
         "verbs":["get","list"]}]}""";

  private static LookupCluster started;

  private final Map<String, String> secrets = new ConcurrentHashMap<>();

  private LookupCluster() {}

  /** The cluster, started on first use with its kubeconfig written where KUBECONFIG points. */
  static synchronized LookupCluster get() {
    if (started == null) {
      LookupCluster cluster = new LookupCluster();
      cluster.start();
      started = cluster;
    }
    return started;
  }

  /** Stores a Secret as the chart rendered it, as if the release had been installed. */
  void store(JsonNode secret) {
    String namespace = secret.at("/metadata/namespace").asString();
    String name = secret.at("/metadata/name").asString();
    secrets.put(key(namespace, name), JSON.writeValueAsString(secret));
  }

  void clear() {
    secrets.clear();
  }

  private void start() {
    String kubeconfig = System.getenv("KUBECONFIG");
    if (kubeconfig == null || !kubeconfig.endsWith("lookup-cluster.kubeconfig")) {
      throw new IllegalStateException(
          "KUBECONFIG is "
              + kubeconfig
              + ": run the chart tests through Maven (simulator/pom.xml sets it), so that Helm's"
              + " lookup never reads a cluster of your own kubeconfig");
    }
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext("/", this::answer);
      server.setExecutor(
          Executors.newSingleThreadExecutor(
              task -> {
                Thread thread = new Thread(task, "lookup-cluster");
                thread.setDaemon(true);
                return thread;
              }));
      server.start();
      Path file = Path.of(kubeconfig);
      Files.createDirectories(file.getParent());
      Files.writeString(file, kubeconfig(server.getAddress().getPort()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the chart tests' lookup cluster", e);
    }
  }

  private static String kubeconfig(int port) {
    return """
        apiVersion: v1
        kind: Config
        clusters:
          - name: lookup
            cluster:
              server: http://127.0.0.1:%d
        users:
          - name: lookup
            user: {}
        contexts:
          - name: lookup
            context:
              cluster: lookup
              user: lookup
        current-context: lookup
        """
        .formatted(port);
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String body;
    int code = 200;
    if (!"GET".equals(exchange.getRequestMethod())) {
      code = 405;
      body = status(405, "MethodNotAllowed", "the lookup cluster only reads");
    } else if (path.equals("/api/v1")) {
      body = DISCOVERY;
    } else if (path.startsWith(SECRETS_PREFIX) && path.split("/").length == 7) {
      String[] parts = path.split("/");
      String secret = parts[5].equals("secrets") ? secrets.get(key(parts[4], parts[6])) : null;
      if (secret != null) {
        body = secret;
      } else {
        code = 404;
        body = status(404, "NotFound", path + " not found");
      }
    } else {
      code = 404;
      body = status(404, "NotFound", path + " is not served by the lookup cluster");
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static String status(int code, String reason, String message) {
    return JSON.writeValueAsString(
        Map.of(
            "kind",
            "Status",
            "apiVersion",
            "v1",
            "status",
            "Failure",
            "reason",
            reason,
            "message",
            message,
            "code",
            code));
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }
}
