package io.kuik.scale;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The cluster of one harness run, a pure function of its pod count {@code P}: {@code N = P / 10}
 * namespaces {@code team-<j>} of 10 pods each, 20 unrelated Secrets per namespace, 20
 * ImageAlternatives selecting every namespace (5 Always, 15 OnFailure) and their secretRef Secret
 * in the install namespace.
 *
 * <p>Pod {@code i} (namespace {@code team-<i / 10>}) is rewritten when {@code i % 20 == 0}: 5 % of
 * the pods, one in every second namespace, as kuik's webhook leaves them: its {@code
 * kuik.enix.io/rewritten-by} and {@code kuik.enix.io/original-images} annotations, its {@code
 * kuik-inject-imagealternative-onfailure-<k>} reference, and the label {@link #REWRITTEN_LABEL}
 * that a webhook of the {@code scale} design adds (a main webhook's pod lacks it; a syncer that
 * does not select on it ignores it). Every pod is about 6 KB of JSON, as a Deployment's pod on a
 * real cluster: three containers with env, probes and resources, volumes, status and managedFields.
 */
final class ScaleWorkload {

  static final String INSTALL_NAMESPACE = "kuik-system";
  static final String SOURCE_SECRET = "pull-source";
  static final int PODS_PER_NAMESPACE = 10;
  static final int REWRITTEN_EVERY = 20;
  static final int ALWAYS = 5;
  static final int ON_FAILURE = 15;
  static final int UNRELATED_SECRETS = 20;

  /** The label the webhook of the {@code scale} design puts on the pods it rewrites. */
  static final String REWRITTEN_LABEL =
      System.getProperty("kuik.scale.rewrittenLabel", "kuik.enix.io/images-rewritten");

  final int pods;
  final int namespaces;

  ScaleWorkload(int pods) {
    if (pods < PODS_PER_NAMESPACE * 2) {
      throw new IllegalArgumentException("at least " + 2 * PODS_PER_NAMESPACE + " pods");
    }
    this.pods = pods;
    this.namespaces = pods / PODS_PER_NAMESPACE;
  }

  static String namespace(int j) {
    return "team-" + j;
  }

  static boolean rewritten(int pod) {
    return pod % REWRITTEN_EVERY == 0;
  }

  /** The OnFailure resource that rewrote pod {@code i} (when it is rewritten). */
  static String rewriterOf(int pod) {
    return "onfailure-" + (pod / REWRITTEN_EVERY) % ON_FAILURE;
  }

  static String injected(String resource) {
    return "kuik-inject-imagealternative-" + resource;
  }

  /**
   * The Secrets that must exist for kuik to be right: every Always resource in every namespace, and
   * each OnFailure resource where a live pod it rewrote runs; as {@code namespace/name}.
   */
  List<String> neededSecrets() {
    List<String> needed = new ArrayList<>();
    for (int j = 0; j < namespaces; j++) {
      for (int a = 0; a < ALWAYS; a++) {
        needed.add(namespace(j) + "/" + injected("always-" + a));
      }
    }
    for (int i = 0; i < namespaces * PODS_PER_NAMESPACE; i += REWRITTEN_EVERY) {
      needed.add(namespace(i / PODS_PER_NAMESPACE) + "/" + injected(rewriterOf(i)));
    }
    return needed;
  }

  /**
   * The namespace of the {@code p}-th probe pod: one without rewritten pods (odd), so that the
   * probe's Secret is needed for the first time when the probe appears.
   */
  String probeNamespace(int p) {
    int j = 2 * p + 1;
    if (j >= namespaces) {
      throw new IllegalStateException("only " + namespaces / 2 + " probe namespaces");
    }
    return namespace(j);
  }

  static String routingResource(String name, boolean always) {
    return String.join(
        "\n",
        "apiVersion: kuik.enix.io/v1alpha1",
        "kind: ImageAlternative",
        "metadata:",
        "  name: " + name,
        "spec:",
        "  rewritePolicy: " + (always ? "Always" : "OnFailure"),
        "  namespaceSelector: {}",
        "  alternatives:",
        "  - repository: mirror.example.com/" + name + "/app",
        "    auth:",
        "      secretRef: {name: " + SOURCE_SECRET + "}",
        "");
  }

  static String namespaceJson(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
        + name
        + "\",\"uid\":\""
        + uid("ns", name.hashCode())
        + "\",\"resourceVersion\":\"1\",\"creationTimestamp\":\"2026-11-01T00:00:00Z\","
        + "\"labels\":{\"kubernetes.io/metadata.name\":\""
        + name
        + "\",\"team\":\""
        + name
        + "\"}},\"spec\":{\"finalizers\":[\"kubernetes\"]},\"status\":{\"phase\":\"Active\"}}";
  }

  static String unrelatedSecretJson(String namespace, int s) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"type\":\"Opaque\",\"metadata\":{\"name\":"
        + "\"app-secret-"
        + s
        + "\",\"namespace\":\""
        + namespace
        + "\",\"uid\":\""
        + uid("se", namespace.hashCode() * 31 + s)
        + "\",\"resourceVersion\":\"1\",\"creationTimestamp\":\"2026-11-01T00:00:00Z\","
        + "\"labels\":{\"app\":\"app-"
        + s
        + "\"}},\"data\":{\"password\":\"cGFzc3dvcmQtb2YtYW4tYXBwLXRoYXQta3Vpay1kb2VzLW5vdC1uZWVk\","
        + "\"config.yaml\":\""
        + "Y29uZmlnOiB7bGV2ZWw6IGluZm8sIHBvcnQ6IDgwODAsIHVzZXI6IGFwcCwgaG9zdDogZGIuZXhhbXBsZS5jb219"
        + "\"}}";
  }

  /** Pod {@code i} in namespace {@code team-<i / 10>}, as the API server stores it. */
  String podJson(int i) {
    return podJson(
        namespace(i / PODS_PER_NAMESPACE), "app-" + i, rewritten(i) ? rewriterOf(i) : null, i);
  }

  /**
   * A pod of a Deployment, about 6 KB of JSON; {@code rewriter} non-null: as kuik's webhook rewrote
   * its {@code app} container to that OnFailure ImageAlternative.
   */
  static String podJson(String namespace, String name, String rewriter, long seed) {
    String app = "app-" + seed % 97;
    String image =
        rewriter == null
            ? "docker.io/acme/" + app + ":1." + seed % 7
            : "mirror.example.com/" + rewriter + "/app:1." + seed % 7;
    StringBuilder json = new StringBuilder(7000);
    json.append("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"")
        .append(name)
        .append("\",\"generateName\":\"")
        .append(app)
        .append("-7d9f8c6b5-\",\"namespace\":\"")
        .append(namespace)
        .append("\",\"uid\":\"")
        .append(uid("po", seed))
        .append("\",\"resourceVersion\":\"1\",\"creationTimestamp\":\"2026-11-01T00:00:00Z\",")
        .append("\"labels\":{\"app.kubernetes.io/name\":\"")
        .append(app)
        .append("\",\"app.kubernetes.io/part-of\":\"shop\",\"pod-template-hash\":\"7d9f8c6b5\"");
    if (rewriter != null) {
      json.append(",\"").append(REWRITTEN_LABEL).append("\":\"true\"");
    }
    json.append(
        "},\"annotations\":{\"kubectl.kubernetes.io/restartedAt\":\"2026-11-01T00:00:00Z\"");
    if (rewriter != null) {
      json.append(",\"kuik.enix.io/rewritten-by\":\"{\\\"app\\\":\\\"ImageAlternative/")
          .append(rewriter)
          .append("\\\"}\",\"kuik.enix.io/original-images\":\"{\\\"app\\\":\\\"docker.io/acme/")
          .append(app)
          .append(":1.")
          .append(seed % 7)
          .append("\\\"}\"");
    }
    json.append("},\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",")
        .append("\"name\":\"")
        .append(app)
        .append("-7d9f8c6b5\",\"uid\":\"")
        .append(uid("rs", seed % 97))
        .append("\",\"controller\":true,\"blockOwnerDeletion\":true}],")
        .append(MANAGED_FIELDS)
        .append("},\"spec\":{\"containers\":[");
    container(json, "app", image, 8080);
    json.append(',');
    container(json, "sidecar", "docker.io/envoyproxy/envoy:v1.31." + seed % 5, 15001);
    json.append(',');
    json.append("{\"name\":\"metrics\",\"image\":\"quay.io/prometheus/statsd-exporter:v0.27.")
        .append(seed % 3)
        .append("\",\"ports\":[{\"containerPort\":9102,\"protocol\":\"TCP\"}],\"resources\":")
        .append("{\"requests\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"}},")
        .append("\"imagePullPolicy\":\"IfNotPresent\"}");
    json.append("],\"volumes\":[{\"name\":\"config\",\"configMap\":{\"name\":\"")
        .append(app)
        .append("-config\",\"defaultMode\":420}},{\"name\":\"tls\",\"secret\":{\"secretName\":\"")
        .append(app)
        .append("-tls\",\"defaultMode\":420}},{\"name\":\"kube-api-access-x7k2p\",\"projected\":")
        .append("{\"sources\":[{\"serviceAccountToken\":{\"expirationSeconds\":3607,\"path\":")
        .append("\"token\"}},{\"configMap\":{\"name\":\"kube-root-ca.crt\",\"items\":[{\"key\":")
        .append("\"ca.crt\",\"path\":\"ca.crt\"}]}},{\"downwardAPI\":{\"items\":[{\"path\":")
        .append("\"namespace\",\"fieldRef\":{\"apiVersion\":\"v1\",\"fieldPath\":")
        .append("\"metadata.namespace\"}}]}}],\"defaultMode\":420}}],")
        .append("\"restartPolicy\":\"Always\",\"terminationGracePeriodSeconds\":30,")
        .append("\"dnsPolicy\":\"ClusterFirst\",\"serviceAccountName\":\"default\",")
        .append("\"serviceAccount\":\"default\",\"nodeName\":\"node-")
        .append(seed % 50)
        .append("\",\"securityContext\":{\"runAsNonRoot\":true,\"fsGroup\":2000},")
        .append("\"imagePullSecrets\":[{\"name\":\"registry-credentials\"}");
    if (rewriter != null) {
      json.append(",{\"name\":\"").append(injected(rewriter)).append("\"}");
    }
    json.append("],\"schedulerName\":\"default-scheduler\",\"tolerations\":[{\"key\":")
        .append(
            "\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",")
        .append("\"tolerationSeconds\":300},{\"key\":\"node.kubernetes.io/unreachable\",")
        .append("\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":300}],")
        .append("\"priority\":0,\"enableServiceLinks\":true,\"preemptionPolicy\":")
        .append("\"PreemptLowerPriority\"},\"status\":{\"phase\":\"Running\",\"conditions\":[");
    String[] conditions = {
      "PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"
    };
    for (int c = 0; c < conditions.length; c++) {
      json.append(c == 0 ? "" : ",")
          .append("{\"type\":\"")
          .append(conditions[c])
          .append("\",\"status\":\"True\",\"lastProbeTime\":null,")
          .append("\"lastTransitionTime\":\"2026-11-01T00:00:0")
          .append(c)
          .append("Z\"}");
    }
    json.append("],\"hostIP\":\"10.0.")
        .append(seed % 50)
        .append(".1\",\"podIP\":\"10.244.")
        .append(seed % 250)
        .append('.')
        .append(seed % 200)
        .append("\",\"podIPs\":[{\"ip\":\"10.244.")
        .append(seed % 250)
        .append('.')
        .append(seed % 200)
        .append("\"}],\"startTime\":\"2026-11-01T00:00:00Z\",\"containerStatuses\":[");
    String[] names = {"app", "sidecar", "metrics"};
    for (int c = 0; c < names.length; c++) {
      json.append(c == 0 ? "" : ",")
          .append("{\"name\":\"")
          .append(names[c])
          .append("\",\"state\":{\"running\":{\"startedAt\":\"2026-11-01T00:00:10Z\"}},")
          .append("\"ready\":true,\"restartCount\":0,\"image\":\"")
          .append(c == 0 ? image : names[c])
          .append("\",\"imageID\":\"docker.io/library/")
          .append(names[c])
          .append("@sha256:4f1c2b0e8d7a6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928170f6e5d4c\",")
          .append("\"containerID\":\"containerd://")
          .append(uid("ct", seed * 3 + c).replace("-", ""))
          .append("\",\"started\":true}");
    }
    json.append("],\"qosClass\":\"Burstable\"}}");
    return json.toString();
  }

  private static void container(StringBuilder json, String name, String image, int port) {
    json.append("{\"name\":\"")
        .append(name)
        .append("\",\"image\":\"")
        .append(image)
        .append("\",\"ports\":[{\"name\":\"http\",\"containerPort\":")
        .append(port)
        .append(",\"protocol\":\"TCP\"}],\"env\":[");
    for (int e = 0; e < 2; e++) {
      json.append(e == 0 ? "" : ",")
          .append("{\"name\":\"SETTING_")
          .append(e)
          .append("\",\"value\":\"value-of-setting-")
          .append(e)
          .append("\"}");
    }
    json.append(",{\"name\":\"POD_NAME\",\"valueFrom\":{\"fieldRef\":{\"apiVersion\":\"v1\",")
        .append("\"fieldPath\":\"metadata.name\"}}}],\"resources\":{\"limits\":{\"memory\":")
        .append("\"256Mi\"},\"requests\":{\"cpu\":\"100m\",\"memory\":\"128Mi\"}},")
        .append("\"volumeMounts\":[{\"name\":\"config\",\"mountPath\":\"/etc/app\"},{\"name\":")
        .append("\"kube-api-access-x7k2p\",\"readOnly\":true,\"mountPath\":")
        .append("\"/var/run/secrets/kubernetes.io/serviceaccount\"}],\"readinessProbe\":")
        .append("{\"httpGet\":{\"path\":\"/ready\",\"port\":")
        .append(port)
        .append(",\"scheme\":\"HTTP\"},\"timeoutSeconds\":1,\"periodSeconds\":10,")
        .append("\"successThreshold\":1,\"failureThreshold\":3},\"terminationMessagePath\":")
        .append("\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\",")
        .append("\"imagePullPolicy\":\"IfNotPresent\"}");
  }

  private static final String MANAGED_FIELDS =
      "\"managedFields\":[{\"manager\":\"kube-controller-manager\",\"operation\":\"Update\","
          + "\"apiVersion\":\"v1\",\"time\":\"2026-11-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\","
          + "\"fieldsV1\":{\"f:metadata\":{\"f:generateName\":{},\"f:labels\":{\".\":{},"
          + "\"f:app.kubernetes.io/name\":{},\"f:pod-template-hash\":{}},\"f:ownerReferences\":"
          + "{\".\":{},\"k:{\\\"uid\\\":\\\"0\\\"}\":{}}},\"f:spec\":{\"f:containers\":"
          + "{\"k:{\\\"name\\\":\\\"app\\\"}\":{\".\":{},\"f:args\":{},\"f:env\":{},\"f:image\":{},"
          + "\"f:imagePullPolicy\":{},\"f:name\":{},\"f:ports\":{},\"f:readinessProbe\":{},"
          + "\"f:resources\":{},\"f:volumeMounts\":{}},\"k:{\\\"name\\\":\\\"sidecar\\\"}\":"
          + "{\".\":{},\"f:image\":{},\"f:name\":{}}},\"f:dnsPolicy\":{},\"f:restartPolicy\":{},"
          + "\"f:volumes\":{}}}},{\"manager\":\"kubelet\",\"operation\":\"Update\","
          + "\"apiVersion\":\"v1\",\"time\":\"2026-11-01T00:00:10Z\",\"fieldsType\":\"FieldsV1\","
          + "\"fieldsV1\":{\"f:status\":{\"f:conditions\":{\"k:{\\\"type\\\":\\\"Ready\\\"}\":"
          + "{\".\":{},\"f:lastProbeTime\":{},\"f:lastTransitionTime\":{},\"f:status\":{},"
          + "\"f:type\":{}}},\"f:containerStatuses\":{},\"f:hostIP\":{},\"f:phase\":{},"
          + "\"f:podIP\":{},\"f:podIPs\":{},\"f:startTime\":{}}},\"subresource\":\"status\"}]";

  private static String uid(String kind, long seed) {
    return String.format(
        Locale.ROOT,
        "%s%06x-0000-4000-8000-%012x",
        kind,
        (seed >>> 24) & 0xffffff,
        seed & 0xffffffffffffL);
  }
}
