package io.kuik.sim.chart.helm;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Value sets the chart's schema accepts, drawn over every axis a user turns: the release name and
 * namespace, {@code fullnameOverride} and {@code nameOverride}, each optional feature on and off
 * (pull secret first, cert-manager or a TLS Secret of one's own, peers, excluded namespaces,
 * namespaces by default, NetworkPolicies, the metrics Services and monitors, the selftest and its
 * pod check, ServiceAccounts of one's own, a single replica without leader election, {@code
 * global.*}), and pairs of releases side by side. Seeded: the same sets every run, so that a
 * failure names a set that can be rendered again by hand with the flags its label shows.
 */
final class ValuesSpace {

  /** How many sets {@link #drawn()} draws. */
  static final int DRAWN = 40;

  private static final long SEED = 33;

  private static final List<String> RELEASES =
      List.of("kuik", "acme", "edge", "core", "image-routing-eu-west-1", "k");
  private static final List<String> NAMESPACES =
      List.of("kuik-system", "kuik", "platform-tools", "kuik-shard-b");
  private static final List<String> FULLNAMES = List.of("acme", "images", "kuik-eu-1");

  private ValuesSpace() {}

  /**
   * The sets every check runs on: one per axis turned alone from the defaults (so that a finding
   * names the value that causes it), then {@link #DRAWN} drawn with every axis at random.
   */
  static List<ValueSet> all() {
    List<ValueSet> sets = new ArrayList<>(alone());
    sets.addAll(drawn());
    return sets;
  }

  /** Each axis turned on its own, from the defaults. */
  static List<ValueSet> alone() {
    return List.of(
        set("defaults", "kuik", "kuik-system"),
        set("fullnameOverride", "kuik", "kuik-system", "fullnameOverride=acme"),
        set("nameOverride", "kuik", "kuik-system", "nameOverride=image-routing"),
        set("another release name", "edge", "kuik-system"),
        set("another namespace", "kuik", "platform-tools"),
        set(
            "pull secret first",
            "kuik",
            "kuik-system",
            "pullSecretFirst.enabled=true",
            "pullSecretFirst.maxWait=45s"),
        set(
            "pull secret first, fullnameOverride",
            "kuik",
            "kuik-system",
            "pullSecretFirst.enabled=true",
            "fullnameOverride=acme"),
        set("cert-manager", "kuik", "kuik-system", "certManager.enabled=true"),
        set(
            "own TLS Secret",
            "kuik",
            "kuik-system",
            "webhook.tls.secretName=company-webhook-tls",
            "webhook.tls.caBundle=Q0E="),
        set(
            "peers",
            "kuik",
            "kuik-system",
            "syncer.peers[0].namespace=kuik-b",
            "syncer.peers[0].release=kuik-b",
            "syncer.peers[1].namespace=kuik-c",
            "syncer.peers[1].serviceAccount=shard-c-syncer"),
        set(
            "excluded namespaces",
            "kuik",
            "kuik-system",
            "webhook.excludedNamespaces[0]=legacy",
            "webhook.excludedNamespaces[1]=sandbox"),
        set("not by default", "kuik", "kuik-system", "syncer.namespacesByDefault=false"),
        set("NetworkPolicy", "kuik", "kuik-system", "networkPolicy.enabled=true"),
        set(
            "ServiceMonitor and PodMonitor",
            "kuik",
            "kuik-system",
            "metrics.serviceMonitor.enabled=true",
            "metrics.podMonitor.enabled=true"),
        set("no metrics Services", "kuik", "kuik-system", "metrics.service.enabled=false"),
        set("no selftest", "kuik", "kuik-system", "selftest.enabled=false"),
        set(
            "selftest pod check",
            "kuik",
            "kuik-system",
            "selftest.podCheck.namespace=shop",
            "selftest.podCheck.image=docker.io/acme/app:1.0"),
        set(
            "own ServiceAccounts",
            "kuik",
            "kuik-system",
            "syncer.serviceAccount.name=kuik-syncer-identity",
            "webhook.serviceAccount.name=kuik-webhook-identity"),
        set(
            "ServiceAccounts brought",
            "kuik",
            "kuik-system",
            "syncer.serviceAccount.create=false",
            "syncer.serviceAccount.name=platform-syncer",
            "webhook.serviceAccount.create=false",
            "webhook.serviceAccount.name=platform-webhook"),
        set(
            "one replica, no leader election",
            "kuik",
            "kuik-system",
            "syncer.replicas=1",
            "syncer.leaderElection.enabled=false"),
        set(
            "global",
            "kuik",
            "kuik-system",
            "global.imagePullSecrets[0].name=platform-pull",
            "global.priorityClassName=platform-critical",
            "global.commonLabels.cost-center=platform",
            "global.nodeSelector.kubernetes\\.io/os=linux"),
        set(
            "global under the chart's own values",
            "kuik",
            "kuik-system",
            "global.priorityClassName=platform-critical",
            "syncer.priorityClassName=kuik-syncer",
            "global.nodeSelector.pool=platform",
            "webhook.nodeSelector.pool=edge",
            "imagePullSecrets[0].name=kuik-pull",
            "global.imagePullSecrets[0].name=platform-pull"),
        set(
            "longest fullnameOverride",
            "kuik",
            "kuik-system",
            "fullnameOverride=" + "f".repeat(40)),
        set("longest release name the chart takes", "r".repeat(40), "kuik-system"));
  }

  /** {@link #DRAWN} sets, every axis drawn from one seeded stream. */
  static List<ValueSet> drawn() {
    Random random = new Random(SEED);
    List<ValueSet> sets = new ArrayList<>();
    for (int i = 0; i < DRAWN; i++) {
      String release = pick(random, RELEASES);
      String namespace = pick(random, NAMESPACES);
      List<String> values = new ArrayList<>();
      if (random.nextInt(3) == 0) {
        values.add("fullnameOverride=" + pick(random, FULLNAMES));
      }
      if (random.nextInt(4) == 0) {
        values.add("nameOverride=image-routing");
      }
      boolean election = random.nextInt(5) != 0;
      if (!election) {
        values.add("syncer.replicas=1");
        values.add("syncer.leaderElection.enabled=false");
      } else if (random.nextBoolean()) {
        values.add("pullSecretFirst.enabled=true");
      }
      switch (random.nextInt(3)) {
        case 0 -> values.add("certManager.enabled=true");
        case 1 -> {
          values.add("webhook.tls.secretName=company-webhook-tls");
          values.add("webhook.tls.caBundle=Q0E=");
        }
        default -> {}
      }
      for (int p = 0, peers = random.nextInt(3); p < peers; p++) {
        values.add("syncer.peers[" + p + "].namespace=shard-" + p);
        values.add("syncer.peers[" + p + "].release=shard-" + p);
      }
      for (int e = 0, excluded = random.nextInt(3); e < excluded; e++) {
        values.add("webhook.excludedNamespaces[" + e + "]=excluded-" + e);
      }
      if (random.nextBoolean()) {
        values.add("networkPolicy.enabled=true");
      }
      if (random.nextInt(4) == 0) {
        values.add("metrics.service.enabled=false");
      } else if (random.nextBoolean()) {
        values.add("metrics.serviceMonitor.enabled=true");
      }
      if (random.nextInt(4) == 0) {
        values.add("selftest.enabled=false");
      } else if (random.nextBoolean()) {
        values.add("selftest.podCheck.namespace=shop");
        values.add("selftest.podCheck.image=docker.io/acme/app:1.0");
      }
      if (random.nextInt(4) == 0) {
        values.add("syncer.serviceAccount.name=" + release + "-syncer-identity");
      }
      if (random.nextInt(3) == 0) {
        values.add("syncer.namespacesByDefault=false");
      }
      if (random.nextInt(4) == 0) {
        values.add("global.imagePullSecrets[0].name=platform-pull");
        values.add("global.priorityClassName=platform-critical");
      }
      sets.add(
          new ValueSet(
              "drawn " + i + ": " + release + " in " + namespace + " " + values,
              release,
              namespace,
              values));
    }
    return sets;
  }

  /**
   * Two releases side by side, as docs/operations.md allows: in one namespace (sharding by
   * namespace, or two teams' releases), or in two; the second leaves the CRDs to the first (two
   * releases cannot own one CRD).
   */
  static List<SideBySide> sideBySide() {
    return List.of(
        new SideBySide(
            "edge and core in kuik-system",
            set("edge", "edge", "kuik-system"),
            set("core", "core", "kuik-system", "crds.enabled=false")),
        new SideBySide(
            "edge and core in kuik-system, pull secret first",
            set("edge", "edge", "kuik-system", "pullSecretFirst.enabled=true"),
            set(
                "core",
                "core",
                "kuik-system",
                "crds.enabled=false",
                "pullSecretFirst.enabled=true")),
        new SideBySide(
            "kuik and a fullnameOverride in one namespace",
            set("kuik", "kuik", "kuik-system", "pullSecretFirst.enabled=true"),
            set(
                "acme",
                "shard-b",
                "kuik-system",
                "fullnameOverride=acme",
                "crds.enabled=false",
                "pullSecretFirst.enabled=true")),
        new SideBySide(
            "two shards listing each other, each in its namespace",
            set(
                "kuik-a",
                "kuik-a",
                "kuik-a",
                "syncer.peers[0].namespace=kuik-b",
                "syncer.peers[0].release=kuik-b"),
            set(
                "kuik-b",
                "kuik-b",
                "kuik-b",
                "crds.enabled=false",
                "syncer.peers[0].namespace=kuik-a",
                "syncer.peers[0].release=kuik-a")),
        new SideBySide(
            "every option on, twice in one namespace",
            set(
                "blue",
                "blue",
                "platform-tools",
                "pullSecretFirst.enabled=true",
                "networkPolicy.enabled=true",
                "metrics.serviceMonitor.enabled=true",
                "metrics.podMonitor.enabled=true",
                "certManager.enabled=true",
                "selftest.podCheck.namespace=shop",
                "selftest.podCheck.image=docker.io/acme/app:1.0"),
            set(
                "green",
                "green",
                "platform-tools",
                "crds.enabled=false",
                "pullSecretFirst.enabled=true",
                "networkPolicy.enabled=true",
                "metrics.serviceMonitor.enabled=true",
                "metrics.podMonitor.enabled=true",
                "certManager.enabled=true",
                "selftest.podCheck.namespace=shop",
                "selftest.podCheck.image=docker.io/acme/app:1.0")));
  }

  /** Two releases installed side by side in one cluster. */
  record SideBySide(String label, ValueSet first, ValueSet second) {
    @Override
    public String toString() {
      return label;
    }
  }

  private static ValueSet set(String label, String release, String namespace, String... values) {
    return new ValueSet(label, release, namespace, List.of(values));
  }

  private static <T> T pick(Random random, List<T> choices) {
    return choices.get(random.nextInt(choices.size()));
  }
}
