package io.kuik.load;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the harness sends and what the cluster holds, a pure function of the registries' hosts, the
 * scenario and the rollout size: the routing resources, the namespaces, the images the registries
 * must hold, and the {@code i}-th AdmissionReview.
 *
 * <p>Pod {@code i} belongs to rollout {@code i / podsPerRollout}: a ReplicaSet creating its pods,
 * all of the same images. Every rollout is a new version of one of {@value #APPS} apps (a tag never
 * seen before, so its app image is a cache miss), in namespace {@code team-<r mod 20>}; its other
 * three images come from small shared sets (cache hits). Four containers, one of each kind:
 *
 * <ul>
 *   <li>init {@code tools}: {@code <open>/base/tools:1..3}, available; in the {@code tier=a}
 *       namespaces the Always ImageAlternative {@code base} routes it to its private copy first;
 *   <li>{@code app}: {@code <dead>/apps/app-<k>:r<rollout>}, a registry that refuses connections,
 *       routed by the OnFailure ImageAlternative {@code apps} to its private copy (which injects
 *       {@code kuik-inject-imagealternative-apps}). In the outage scenario every fourth rollout's
 *       app is on {@code <silent>/vendor/...} instead, a registry that accepts connections and
 *       never answers, routed by {@code vendor};
 *   <li>{@code proxy}: {@code localhost/mesh/proxy:1.0..1.2} (port 80, refused), routed by the
 *       OnFailure ImageMirror {@code mesh} to {@code <open>/mirror/localhost/mesh/proxy};
 *   <li>{@code logger}: {@code <open>/upstream/logger:1..2}, missing (404), routed by {@code
 *       logger} to {@code <open>/copies/logger}.
 * </ul>
 *
 * Six more resources select nothing the pods use, as a cluster holds resources for other teams.
 */
final class LoadWorkload {

  static final String INSTALL_NAMESPACE = "kuik-system";
  static final String PULL_SECRET = "private-pull";
  static final int NAMESPACES = 20;
  static final int APPS = 25;

  /** Hosts of the four kinds of registry the images live on. */
  record Hosts(String open, String secured, String dead, String silent) {}

  enum Scenario {
    /** Every original refuses connections or lacks the image: the webhook probes and routes. */
    HEALTHY("originals refused or missing"),
    /** As healthy, plus every fourth rollout's app original on a registry that never answers. */
    OUTAGE("as healthy, and every 4th rollout's app original never answers (probe timeout)");

    final String description;

    Scenario(String description) {
      this.description = description;
    }

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final Hosts hosts;
  private final Scenario scenario;
  private final int podsPerRollout;

  LoadWorkload(Hosts hosts, Scenario scenario, int podsPerRollout) {
    if (podsPerRollout < 1) {
      throw new IllegalArgumentException("podsPerRollout must be at least 1");
    }
    this.hosts = hosts;
    this.scenario = scenario;
    this.podsPerRollout = podsPerRollout;
  }

  int podsPerRollout() {
    return podsPerRollout;
  }

  long rolloutOf(long pod) {
    return pod / podsPerRollout;
  }

  /** The namespaces and their labels: even ones {@code tier=a}, odd ones {@code tier=b}. */
  static Map<String, Map<String, String>> namespaces() {
    Map<String, Map<String, String>> namespaces = new LinkedHashMap<>();
    namespaces.put(INSTALL_NAMESPACE, Map.of());
    for (int n = 0; n < NAMESPACES; n++) {
      namespaces.put(namespace(n), Map.of("tier", n % 2 == 0 ? "a" : "b"));
    }
    return namespaces;
  }

  /** The routing resources, as YAML documents. */
  List<String> routingResources() {
    List<String> resources = new ArrayList<>();
    resources.add(
        alternative(
            "apps",
            "OnFailure",
            "",
            "  - repositoryGroup: " + hosts.dead() + "/apps",
            "  - repositoryGroup: " + hosts.secured() + "/apps",
            "    auth: {secretRef: {name: " + PULL_SECRET + "}}"));
    resources.add(
        alternative(
            "vendor",
            "OnFailure",
            "",
            "  - repositoryGroup: " + hosts.silent() + "/vendor",
            "  - repositoryGroup: " + hosts.secured() + "/vendor",
            "    auth: {secretRef: {name: " + PULL_SECRET + "}}"));
    resources.add(
        alternative(
            "base",
            "Always",
            "  namespaceSelector: {matchLabels: {tier: a}}\n",
            "  - repositoryGroup: " + hosts.open() + "/base",
            "  - repositoryGroup: " + hosts.secured() + "/base",
            "    auth: {secretRef: {name: " + PULL_SECRET + "}}"));
    resources.add(
        alternative(
            "logger",
            "OnFailure",
            "",
            "  - repository: " + hosts.open() + "/upstream/logger",
            "  - repository: " + hosts.open() + "/copies/logger"));
    resources.add(mirror("mesh", "OnFailure", "", hosts.open() + "/mirror/", ""));
    resources.add(
        mirror(
            "disaster-recovery",
            "Always",
            "  namespaceSelector: {matchLabels: {region: dr}}\n",
            hosts.secured() + "/dr/",
            "      auth: {secretRef: {name: " + PULL_SECRET + "}}\n"));
    for (int i = 1; i <= 4; i++) {
      resources.add(
          alternative(
              "other-team-" + i,
              "OnFailure",
              "",
              "  - repositoryGroup: " + hosts.open() + "/other-team-" + i,
              "  - repositoryGroup: " + hosts.secured() + "/other-team-" + i,
              "    auth: {secretRef: {name: " + PULL_SECRET + "}}"));
    }
    return resources;
  }

  /** Repositories and tags of the open registry that never change. */
  Map<String, List<String>> openImages() {
    Map<String, List<String>> images = new LinkedHashMap<>();
    images.put("base/tools", List.of("1", "2", "3"));
    images.put("copies/logger", List.of("1", "2"));
    images.put("mirror/localhost/mesh/proxy", List.of("1.0", "1.1", "1.2"));
    return images;
  }

  /** Repositories and tags of the secured registry for the rollouts {@code [first, end)}. */
  Map<String, List<String>> securedImages(long firstRollout, long endRollout) {
    Map<String, List<String>> images = new LinkedHashMap<>();
    images.put("base/tools", new ArrayList<>(List.of("1", "2", "3")));
    for (long r = firstRollout; r < endRollout; r++) {
      images
          .computeIfAbsent((silentApp(r) ? "vendor/" : "apps/") + app(r), k -> new ArrayList<>())
          .add(tag(r));
    }
    return images;
  }

  /** The AdmissionReview of pod {@code i}, as the API server posts it. */
  byte[] review(long i) {
    long r = rolloutOf(i);
    String app = app(r);
    String hash = Long.toHexString(0x5d8f9c000L + r);
    String appImage = (silentApp(r) ? hosts.silent() + "/vendor/" : hosts.dead() + "/apps/") + app;
    return REVIEW
        .replace("{uid}", "4f1c2d3e-0000-4000-8000-" + String.format("%012d", i))
        .replace("{namespace}", namespace((int) (r % NAMESPACES)))
        .replace("{app}", app)
        .replace("{hash}", hash)
        .replace("{suffix}", Long.toString(36 + i % podsPerRollout, 36) + "x" + (i % 97))
        .replace("{tools}", hosts.open() + "/base/tools:" + (1 + r % 3))
        .replace("{appImage}", appImage + ":" + tag(r))
        .replace("{proxy}", "localhost/mesh/proxy:1." + (r % 3))
        .replace("{logger}", hosts.open() + "/upstream/logger:" + (1 + r % 2))
        .getBytes(StandardCharsets.UTF_8);
  }

  private boolean silentApp(long rollout) {
    return scenario == Scenario.OUTAGE && rollout % 4 == 0;
  }

  private static String app(long rollout) {
    return "app-" + rollout % APPS;
  }

  private static String tag(long rollout) {
    return "r" + rollout;
  }

  private static String namespace(int n) {
    return String.format("team-%02d", n);
  }

  private static String alternative(
      String name, String policy, String selectors, String... alternatives) {
    return "apiVersion: kuik.enix.io/v1alpha1\n"
        + "kind: ImageAlternative\n"
        + "metadata: {name: "
        + name
        + "}\n"
        + "spec:\n"
        + selectors
        + "  rewritePolicy: "
        + policy
        + "\n"
        + "  alternatives:\n"
        + String.join("\n", alternatives)
        + "\n";
  }

  private static String mirror(
      String name, String policy, String selectors, String path, String auth) {
    return "apiVersion: kuik.enix.io/v1alpha1\n"
        + "kind: ImageMirror\n"
        + "metadata: {name: "
        + name
        + "}\n"
        + "spec:\n"
        + selectors
        + "  rewritePolicy: "
        + policy
        + "\n"
        + "  destination:\n"
        + "    path: "
        + path
        + "\n"
        + (auth.isEmpty() ? "" : "    pull:\n" + auth);
  }

  /**
   * A pod of a Deployment as the API server hands it to a mutating webhook: after the
   * ServiceAccount and DefaultTolerationSeconds admission plugins (token volume, tolerations) and
   * with the ReplicaSet controller's managedFields; about 5 KB.
   */
  private static final String REVIEW =
      """
      {"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{\
      "uid":"{uid}","kind":{"group":"","version":"v1","kind":"Pod"},\
      "resource":{"group":"","version":"v1","resource":"pods"},\
      "requestKind":{"group":"","version":"v1","kind":"Pod"},\
      "requestResource":{"group":"","version":"v1","resource":"pods"},\
      "namespace":"{namespace}","operation":"CREATE",\
      "userInfo":{"username":"system:serviceaccount:kube-system:replicaset-controller",\
      "uid":"1b7e2f4a-8c3d-4e5f-9a0b-1c2d3e4f5a6b",\
      "groups":["system:serviceaccounts","system:serviceaccounts:kube-system","system:authenticated"]},\
      "object":{"kind":"Pod","apiVersion":"v1","metadata":{"generateName":"{app}-{hash}-",\
      "namespace":"{namespace}","creationTimestamp":null,\
      "labels":{"app.kubernetes.io/name":"{app}","app.kubernetes.io/part-of":"shop",\
      "app.kubernetes.io/version":"{hash}","pod-template-hash":"{hash}"},\
      "annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-30T09:00:00Z",\
      "prometheus.io/scrape":"true","prometheus.io/port":"9090"},\
      "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"{app}-{hash}",\
      "uid":"7c6b5a49-3827-4165-8f4e-3d2c1b0a9f8e","controller":true,"blockOwnerDeletion":true}],\
      "managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1",\
      "time":"2026-11-30T09:00:01Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{\
      "f:annotations":{".":{},"f:kubectl.kubernetes.io/restartedAt":{},"f:prometheus.io/port":{},\
      "f:prometheus.io/scrape":{}},"f:generateName":{},"f:labels":{".":{},\
      "f:app.kubernetes.io/name":{},"f:app.kubernetes.io/part-of":{},"f:app.kubernetes.io/version":{},\
      "f:pod-template-hash":{}},"f:ownerReferences":{".":{},\
      "k:{\\"uid\\":\\"7c6b5a49-3827-4165-8f4e-3d2c1b0a9f8e\\"}":{}}},"f:spec":{\
      "f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:env":{},"f:image":{},"f:name":{},\
      "f:ports":{},"f:readinessProbe":{},"f:resources":{}},"k:{\\"name\\":\\"proxy\\"}":{".":{},\
      "f:image":{},"f:name":{}},"k:{\\"name\\":\\"logger\\"}":{".":{},"f:image":{},"f:name":{}}},\
      "f:initContainers":{"k:{\\"name\\":\\"tools\\"}":{".":{},"f:image":{},"f:name":{}}},\
      "f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},\
      "f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}]},\
      "spec":{"volumes":[{"name":"config","configMap":{"name":"{app}-config","defaultMode":420}},\
      {"name":"kube-api-access-{suffix}","projected":{"sources":[{"serviceAccountToken":\
      {"expirationSeconds":3607,"path":"token"}},{"configMap":{"name":"kube-root-ca.crt",\
      "items":[{"key":"ca.crt","path":"ca.crt"}]}},{"downwardAPI":{"items":[{"path":"namespace",\
      "fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}],"defaultMode":420}}],\
      "initContainers":[{"name":"tools","image":"{tools}","command":["/bin/migrate","--wait"],\
      "resources":{"requests":{"cpu":"10m","memory":"16Mi"}},\
      "volumeMounts":[{"name":"kube-api-access-{suffix}","readOnly":true,\
      "mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],\
      "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",\
      "imagePullPolicy":"IfNotPresent"}],\
      "containers":[{"name":"app","image":"{appImage}","args":["--listen=:8080","--metrics=:9090"],\
      "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"},\
      {"name":"metrics","containerPort":9090,"protocol":"TCP"}],\
      "env":[{"name":"APP_NAME","value":"{app}"},{"name":"LOG_LEVEL","value":"info"},\
      {"name":"DB_HOST","value":"postgres.{namespace}.svc"},{"name":"DB_PASSWORD","valueFrom":\
      {"secretKeyRef":{"name":"{app}-db","key":"password"}}},{"name":"POD_NAME","valueFrom":\
      {"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}},{"name":"CACHE_TTL","value":"30s"}],\
      "resources":{"limits":{"memory":"512Mi"},"requests":{"cpu":"250m","memory":"256Mi"}},\
      "volumeMounts":[{"name":"config","mountPath":"/etc/app"},{"name":"kube-api-access-{suffix}",\
      "readOnly":true,"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],\
      "readinessProbe":{"httpGet":{"path":"/ready","port":8080,"scheme":"HTTP"},"timeoutSeconds":1,\
      "periodSeconds":5,"successThreshold":1,"failureThreshold":3},\
      "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",\
      "imagePullPolicy":"IfNotPresent","securityContext":{"runAsNonRoot":true,\
      "allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}},\
      {"name":"proxy","image":"{proxy}","args":["proxy","sidecar"],\
      "resources":{"requests":{"cpu":"50m","memory":"64Mi"}},\
      "volumeMounts":[{"name":"kube-api-access-{suffix}","readOnly":true,\
      "mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],\
      "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",\
      "imagePullPolicy":"IfNotPresent"},\
      {"name":"logger","image":"{logger}","resources":{"requests":{"cpu":"10m","memory":"32Mi"}},\
      "volumeMounts":[{"name":"kube-api-access-{suffix}","readOnly":true,\
      "mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],\
      "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",\
      "imagePullPolicy":"IfNotPresent"}],\
      "restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",\
      "serviceAccountName":"default","serviceAccount":"default","securityContext":{},\
      "schedulerName":"default-scheduler","tolerations":[{"key":"node.kubernetes.io/not-ready",\
      "operator":"Exists","effect":"NoExecute","tolerationSeconds":300},\
      {"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute",\
      "tolerationSeconds":300}],"priority":0,"enableServiceLinks":true,\
      "preemptionPolicy":"PreemptLowerPriority"},"status":{}},\
      "oldObject":null,"dryRun":false,\
      "options":{"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1"}}}""";
}
