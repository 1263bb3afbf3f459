package io.kuik.sim.chart;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the chart's files may use: the Helm release name, the namespace the release is installed in
 * (the cluster resource namespace), the ServiceAccount of each component (the chart's {@code
 * serviceAccount.name} values, by default named after the release exactly as the chart spells
 * them), the peers the chart's {@code syncer.peers} value lists, and the values that name and label
 * objects: {@code fullnameOverride} (the prefix of every object's name, the release name by
 * default), {@code nameOverride} (the {@code app.kubernetes.io/name} label, {@code kuik} by
 * default) and {@code commonLabels}.
 */
public record Release(
    String name,
    String namespace,
    String syncerServiceAccount,
    String webhookServiceAccount,
    List<Peer> peers,
    String fullname,
    String appName,
    Map<String, String> commonLabels) {

  /** {@code helm install kuik ... --namespace kuik-system}. */
  public static final Release DEFAULT = new Release("kuik", "kuik-system");

  /**
   * Another release's syncer, as {@code syncer.peers} lists it: its namespace and ServiceAccount.
   */
  public record Peer(String namespace, String serviceAccount) {
    public Peer {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(serviceAccount, "serviceAccount");
    }

    /** The user name its requests carry. */
    public String username() {
      return "system:serviceaccount:" + namespace + ":" + serviceAccount;
    }
  }

  /** The chart's name, which {@code nameOverride} replaces in the labels. */
  public static final String CHART_NAME = "kuik";

  public Release {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(syncerServiceAccount, "syncerServiceAccount");
    Objects.requireNonNull(webhookServiceAccount, "webhookServiceAccount");
    Objects.requireNonNull(fullname, "fullname");
    Objects.requireNonNull(appName, "appName");
    peers = List.copyOf(peers);
    commonLabels = Collections.unmodifiableMap(new TreeMap<>(commonLabels));
    if (name.isBlank() || namespace.isBlank() || fullname.isBlank() || appName.isBlank()) {
      throw new IllegalArgumentException("a release needs a name, a namespace and a fullname");
    }
  }

  /** A release with these ServiceAccounts and peers, named and labelled as by default. */
  public Release(
      String name,
      String namespace,
      String syncerServiceAccount,
      String webhookServiceAccount,
      List<Peer> peers) {
    this(
        name,
        namespace,
        syncerServiceAccount,
        webhookServiceAccount,
        peers,
        name,
        CHART_NAME,
        Map.of());
  }

  /** A release with the chart's default ServiceAccount names and no peers. */
  public Release(String name, String namespace) {
    this(name, namespace, name + "-secret-syncer", name + "-webhook", List.of());
  }

  /** The same release listing {@code more} in {@code syncer.peers}, after the peers it has. */
  public Release withPeers(List<Peer> more) {
    List<Peer> all = new ArrayList<>(peers);
    all.addAll(more);
    return new Release(
        name,
        namespace,
        syncerServiceAccount,
        webhookServiceAccount,
        all,
        fullname,
        appName,
        commonLabels);
  }

  /** This release's syncer as another release lists it. */
  public Peer asPeer() {
    return new Peer(namespace, syncerServiceAccount);
  }

  /** Who the release's admission policy treats as a syncer: its own, then its peers. */
  public List<String> syncerUsernames() {
    List<String> names = new ArrayList<>();
    names.add(asPeer().username());
    peers.forEach(peer -> names.add(peer.username()));
    return names;
  }
}
