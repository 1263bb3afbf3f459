package io.kuik.sim.chart.helm;

import io.kuik.sim.chart.Release;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One way to install the chart: a release name, an install namespace and {@code --set} values.
 *
 * @param label how test reports name this case
 * @param sets {@code key=value} pairs passed with {@code --set}
 */
record ValueSet(String label, String release, String namespace, List<String> sets) {

  ValueSet {
    sets = List.copyOf(sets);
  }

  static final ValueSet DEFAULTS = new ValueSet("default values", "kuik", "kuik", List.of());
  static final ValueSet CERT_MANAGER =
      new ValueSet("cert-manager", "kuik", "kuik", List.of("certManager.enabled=true"));
  static final ValueSet OTHER_NAMESPACE =
      new ValueSet("namespace kuik-other", "kuik", "kuik-other", List.of());
  static final ValueSet OTHER_RELEASE = new ValueSet("release images", "images", "kuik", List.of());

  /** Every optional object and value on: monitors, cert-manager with a ClusterIssuer, peers. */
  static final ValueSet EVERYTHING_ON =
      new ValueSet(
          "every option on",
          "kuik",
          "kuik",
          List.of(
              "image.digest=sha256:" + "0123456789abcdef".repeat(4),
              "certManager.enabled=true",
              "certManager.issuerRef.name=company-ca",
              "certManager.issuerRef.kind=ClusterIssuer",
              "metrics.serviceMonitor.enabled=true",
              "metrics.serviceMonitor.labels.release=prometheus",
              "metrics.podMonitor.enabled=true",
              "syncer.serviceAccount.name=kuik-syncer-identity",
              "syncer.serviceAccount.annotations.iam\\.gke\\.io/gcp-service-account=kuik@p.iam",
              "webhook.serviceAccount.name=kuik-webhook-identity",
              "syncer.peers[0].namespace=kuik-b",
              "syncer.peers[0].release=kuik-b",
              "syncer.peers[1].namespace=kuik-c",
              "syncer.peers[1].serviceAccount=shard-c-syncer",
              "syncer.podDisruptionBudget.minAvailable=1",
              "webhook.hostNetwork=true",
              "webhook.port=9443",
              "webhook.insecureRegistries[0]=registry.local:5000",
              "webhook.insecureRegistries[1]=mirror.lan",
              "webhook.probeCacheTtl=1m",
              "webhook.shutdownDelay=10s",
              "syncer.jvmOptions=-XX:MaxRAMPercentage=60.0 -Djavax.net.ssl.trustStore=/ca/trust.p12",
              "webhook.extraEnv[0].name=TZ",
              "webhook.extraEnv[0].value=UTC",
              "webhook.volumes[0].name=truststore",
              "webhook.volumes[0].secret.secretName=company-ca",
              "webhook.volumeMounts[0].name=truststore",
              "webhook.volumeMounts[0].mountPath=/etc/kuik/truststore",
              "syncer.extraArgs[0]=--lease-duration=30s",
              "providers[0].name=ecr-credential-provider",
              "providers[0].matchImages[0]=*.dkr.ecr.*.amazonaws.com",
              "providers[0].defaultCacheDuration=12h",
              "providers[0].args[0]=get-credentials",
              "providers[0].env[0].name=AWS_REGION",
              "providers[0].env[0].value=eu-west-1",
              "providerCredentials.minValidity=20m",
              "providerCredentials.plugins.initContainer.image=registry.example.com/kuik/plugins:1",
              "providerCredentials.plugins.initContainer.command[0]=cp",
              "providerCredentials.plugins.initContainer.command[1]=/ecr-credential-provider",
              "providerCredentials.plugins.initContainer.command[2]=/kuik/plugins/",
              "networkPolicy.enabled=true",
              "networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.name=monitoring",
              "networkPolicy.apiServer.cidrs[0]=10.0.0.10/32",
              "extraObjects[0].apiVersion=v1",
              "extraObjects[0].kind=ConfigMap",
              "extraObjects[0].metadata.name=registry-hosts",
              "extraObjects[0].data.hosts=quay.io",
              "extraObjects[1]=apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\n"
                  + "  namespace: {{ .Release.Namespace }}\ndata:\n  release: {{ .Release.Name }}\n"));

  /** Names and labels of one's own: another prefix, another name label, labels on everything. */
  static final ValueSet NAMED =
      new ValueSet(
          "fullnameOverride, nameOverride, commonLabels",
          "kuik",
          "kuik",
          List.of(
              "fullnameOverride=images",
              "nameOverride=image-routing",
              "commonLabels.team=platform",
              "commonLabels.example\\.com/cluster=eu-1",
              "metrics.serviceMonitor.enabled=true",
              "monitoring.prometheusRule.enabled=true",
              "monitoring.grafanaDashboard.enabled=true",
              "networkPolicy.enabled=true",
              "networkPolicy.apiServer.ciliumEntity=true",
              "providers[0].name=acr-credential-provider",
              "providers[0].matchImages[0]=*.azurecr.io",
              "providers[0].defaultCacheDuration=10m",
              "providerCredentials.plugins.image.reference=registry.example.com/kuik/plugins:1"));

  /** The webhook's certificate from a Secret the user brings, and no CRDs. */
  static final ValueSet OWN_TLS_NO_CRDS =
      new ValueSet(
          "own TLS Secret, no CRDs",
          "kuik",
          "kuik",
          List.of(
              "webhook.tls.secretName=company-webhook-tls",
              "webhook.tls.caBundle=" + "Q0E=",
              "crds.enabled=false",
              "syncer.replicas=1",
              "webhook.replicas=1",
              "metrics.service.enabled=false",
              "syncer.topologySpreadConstraints=null"));

  /** The value sets every structural check runs on. */
  static List<ValueSet> all() {
    return List.of(DEFAULTS, CERT_MANAGER, OTHER_NAMESPACE, OTHER_RELEASE);
  }

  /** {@link #all()} and the sets that turn the optional objects and values on. */
  static List<ValueSet> withOptions() {
    return List.of(
        DEFAULTS,
        CERT_MANAGER,
        OTHER_NAMESPACE,
        OTHER_RELEASE,
        EVERYTHING_ON,
        OWN_TLS_NO_CRDS,
        NAMED);
  }

  /**
   * The release as the simulator's {@link Release} describes it: the ServiceAccount names and the
   * peers these values set, read from the {@code --set} pairs.
   */
  Release simulated() {
    String fullname = value("fullnameOverride", release);
    String syncer = value("syncer.serviceAccount.name", fullname + "-secret-syncer");
    String webhook = value("webhook.serviceAccount.name", fullname + "-webhook");
    List<Release.Peer> peers = new ArrayList<>();
    for (int i = 0; value("syncer.peers[" + i + "].namespace", null) != null; i++) {
      String prefix = "syncer.peers[" + i + "].";
      String account = value(prefix + "serviceAccount", null);
      peers.add(
          new Release.Peer(
              value(prefix + "namespace", null),
              account != null ? account : value(prefix + "release", null) + "-secret-syncer"));
    }
    Map<String, String> labels = new TreeMap<>();
    for (Set set : parsedSets()) {
      if (set.key().startsWith("commonLabels.")) {
        labels.put(set.key().substring("commonLabels.".length()).replace("\\.", "."), set.value());
      }
    }
    return new Release(
        release,
        namespace,
        syncer,
        webhook,
        peers,
        fullname,
        value("nameOverride", Release.CHART_NAME),
        labels,
        sets.stream()
            .filter(
                set ->
                    !set.startsWith("fullnameOverride=")
                        && !set.startsWith("nameOverride=")
                        && !set.startsWith("commonLabels.")
                        && !set.startsWith("syncer.serviceAccount.name=")
                        && !set.startsWith("webhook.serviceAccount.name=")
                        && !set.startsWith("syncer.peers["))
            .toList());
  }

  private String value(String key, String fallback) {
    for (String set : sets) {
      if (set.startsWith(key + "=")) {
        return set.substring(key.length() + 1);
      }
    }
    return fallback;
  }

  /** The same release with more values. */
  ValueSet with(String... moreSets) {
    List<String> merged = new ArrayList<>(sets);
    merged.addAll(List.of(moreSets));
    return new ValueSet(label + " + " + String.join(",", moreSets), release, namespace, merged);
  }

  boolean certManager() {
    return sets.contains("certManager.enabled=true");
  }

  String syncerName() {
    return simulated().fullname() + "-secret-syncer";
  }

  String webhookName() {
    return simulated().fullname() + "-webhook";
  }

  /**
   * The {@code --set} pairs, split at their first {@code =}. Helm's library escapes every value it
   * is given, so a list {@code key={a,b}} becomes {@code key[0]=a} and {@code key[1]=b}, which
   * {@code --set} reads the same.
   */
  List<Set> parsedSets() {
    List<Set> parsed = new ArrayList<>();
    for (String set : sets) {
      int equals = set.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException("not key=value: " + set);
      }
      String key = set.substring(0, equals);
      String value = set.substring(equals + 1);
      if (value.startsWith("{") && !value.startsWith("{{") && value.endsWith("}")) {
        String[] items = value.substring(1, value.length() - 1).split(",", -1);
        if (value.length() == 2) {
          throw new IllegalArgumentException(
              "an empty list cannot be set through helm-java: " + set);
        }
        for (int i = 0; i < items.length; i++) {
          parsed.add(new Set(key + "[" + i + "]", items[i]));
        }
      } else {
        parsed.add(new Set(key, value));
      }
    }
    return parsed;
  }

  /** The {@code --set} flags as a command line would carry them, for messages. */
  String flags() {
    StringBuilder flags = new StringBuilder(" --namespace " + namespace);
    sets.forEach(set -> flags.append(" --set '").append(set).append('\''));
    return flags.toString();
  }

  /** One {@code --set key=value}: a key path, and a value typed by Helm's {@code --set} rules. */
  record Set(String key, String value) {}

  @Override
  public String toString() {
    return label;
  }
}
