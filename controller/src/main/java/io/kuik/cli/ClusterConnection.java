package io.kuik.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How both commands reach the API server, and the words that say so: the kubeconfig named by the
 * {@code kubeconfig} system property or {@code KUBECONFIG}, else {@code ~/.kube/config}, else the
 * pod's ServiceAccount, else the URL fabric8 reads from {@code KUBERNETES_MASTER}, else fabric8's
 * last resort {@code https://kubernetes.default.svc}.
 *
 * <p>A kubeconfig that is named but missing is an error, not a silent fall-back to that last
 * resort. The client retries a failed request twice, the same for both commands: a failure goes
 * back to the caller (the core's own backoff, the informers' start), and an unreachable server
 * fails the start within seconds instead of fabric8's default ten retries.
 *
 * @param source where the configuration came from, for log lines
 * @param found whether a kubeconfig or the pod's ServiceAccount was found; without either, fabric8
 *     falls back to {@code https://kubernetes.default.svc}, which only answers inside a pod
 */
record ClusterConnection(Config config, String source, boolean found) {

  private static final int CLIENT_RETRIES = 2;
  private static final Path IN_CLUSTER_TOKEN =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  /** Thrown when the configuration names a kubeconfig that does not exist. */
  static final class Unusable extends Exception {
    Unusable(String message) {
      super(message);
    }
  }

  static ClusterConnection resolve() throws Unusable {
    return resolve(null);
  }

  /** As {@link #resolve()}, with a kubeconfig context ({@code null}: the current one). */
  static ClusterConnection resolve(String context) throws Unusable {
    return resolve(context, System.getenv(), IN_CLUSTER_TOKEN);
  }

  /**
   * As {@link #resolve(String)}, with the environment variables read from {@code env} and the pod's
   * ServiceAccount token looked for at {@code token}: what a test JVM cannot set. fabric8 builds
   * the configuration from the process's own environment all the same.
   */
  static ClusterConnection resolve(String context, Map<String, String> env, Path token)
      throws Unusable {
    Optional<String> named =
        Optional.ofNullable(System.getProperty("kubeconfig"))
            .map(path -> "kubeconfig " + path + " (system property kubeconfig)")
            .or(
                () ->
                    Optional.ofNullable(env.get("KUBECONFIG"))
                        .filter(value -> !value.isBlank())
                        .map(path -> "kubeconfig " + path + " (KUBECONFIG)"));
    String paths =
        Optional.ofNullable(System.getProperty("kubeconfig")).orElse(env.get("KUBECONFIG"));
    String source;
    boolean found = true;
    if (named.isPresent()) {
      List<String> files =
          Arrays.stream(paths.split(File.pathSeparator)).filter(p -> !p.isBlank()).toList();
      if (files.stream().noneMatch(file -> Files.isReadable(Path.of(file)))) {
        throw new Unusable(
            "the "
                + named.get()
                + " does not exist or cannot be read: fix the path, or unset it to use the pod's"
                + " ServiceAccount");
      }
      source = named.get();
    } else if (Files.isReadable(Path.of(System.getProperty("user.home"), ".kube", "config"))) {
      source = "kubeconfig ~/.kube/config";
    } else if (env.get("KUBERNETES_SERVICE_HOST") != null && Files.isReadable(token)) {
      source = "the pod's ServiceAccount";
    } else if (System.getProperty("kubernetes.master") != null
        || env.get("KUBERNETES_MASTER") != null) {
      source = "kubernetes.master (KUBERNETES_MASTER)";
    } else {
      source = "no kubeconfig (~/.kube/config missing, KUBECONFIG unset) and not in a pod";
      found = false;
    }
    if (context != null) {
      source += ", context " + context;
    }
    Config config =
        new ConfigBuilder(Config.autoConfigure(context))
            .withRequestRetryBackoffLimit(CLIENT_RETRIES)
            .build();
    return new ClusterConnection(config, source, found);
  }

  /**
   * When there is no cluster to talk to (no kubeconfig, not in a pod), the one line that says so
   * and what to do, for {@code kuik <command>}; empty otherwise. fabric8 would dial {@code
   * https://kubernetes.default.svc}, which answers only inside a pod, and fail several times over
   * before saying why.
   */
  Optional<String> noCluster(String command) {
    if (found) {
      return Optional.empty();
    }
    return Optional.of(
        "kuik "
            + command
            + ": no cluster: "
            + source
            + ". Point KUBECONFIG (or -Dkubeconfig) at a kubeconfig, write ~/.kube/config, or run"
            + " it in a pod of the chart.");
  }

  /** The API server, and where that came from, for every line that mentions the cluster. */
  String describe() {
    return "API server " + config.getMasterUrl() + " (from " + source + ")";
  }
}
