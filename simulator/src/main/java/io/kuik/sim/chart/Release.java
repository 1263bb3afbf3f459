package io.kuik.sim.chart;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One {@code helm install} of the chart as the simulator describes it: the Helm release name, the
 * namespace it is installed in (the cluster resource namespace), and the values given with {@code
 * --set}: the ServiceAccount of each component (the chart's {@code serviceAccount.name} values, by
 * default named after the release exactly as the chart spells them), the peers the chart's {@code
 * syncer.peers} value lists, the values that name and label objects ({@code fullnameOverride},
 * {@code nameOverride}, {@code commonLabels}) and any other {@code key=value} in {@code values}.
 * What the cluster holds, and what each process is told, is what Helm renders of it ({@link
 * ChartFiles#render}); nothing here names an object the chart creates.
 */
public record Release(
    String name,
    String namespace,
    String syncerServiceAccount,
    String webhookServiceAccount,
    List<Peer> peers,
    String fullname,
    String appName,
    Map<String, String> commonLabels,
    List<String> values) {

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
    values = List.copyOf(values);
    for (String value : values) {
      if (value.indexOf('=') <= 0) {
        throw new IllegalArgumentException("a value is key=value, as --set takes it: " + value);
      }
    }
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
        Map.of(),
        List.of());
  }

  /** A release with the chart's default ServiceAccount names and no peers. */
  public Release(String name, String namespace) {
    this(name, namespace, name + "-secret-syncer", name + "-webhook", List.of());
  }

  /**
   * A release with {@code fullnameOverride}: every name, the ServiceAccounts' included, after it.
   */
  public static Release withFullname(String name, String namespace, String fullname) {
    return new Release(
        name,
        namespace,
        fullname + "-secret-syncer",
        fullname + "-webhook",
        List.of(),
        fullname,
        CHART_NAME,
        Map.of(),
        List.of());
  }

  /**
   * {@code helm install <name> --namespace <namespace>} with these {@code --set key=value}: the
   * ones that name objects ({@code fullnameOverride}, {@code nameOverride}, the ServiceAccounts'
   * names) read into the release's fields, the others kept as they are.
   */
  public static Release of(String name, String namespace, List<String> values) {
    Map<String, String> named = new TreeMap<>();
    List<String> others = new ArrayList<>();
    for (String value : values) {
      String key = value.substring(0, Math.max(0, value.indexOf('=')));
      switch (key) {
        case "fullnameOverride",
            "nameOverride",
            "syncer.serviceAccount.name",
            "webhook.serviceAccount.name" ->
            named.put(key, value.substring(key.length() + 1));
        default -> others.add(value);
      }
    }
    String fullname = named.getOrDefault("fullnameOverride", name);
    return new Release(
        name,
        namespace,
        named.getOrDefault("syncer.serviceAccount.name", fullname + "-secret-syncer"),
        named.getOrDefault("webhook.serviceAccount.name", fullname + "-webhook"),
        List.of(),
        fullname,
        named.getOrDefault("nameOverride", CHART_NAME),
        Map.of(),
        others);
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
        commonLabels,
        values);
  }

  /** The same release with more {@code --set key=value}, after the ones it has. */
  public Release withValues(String... more) {
    List<String> all = new ArrayList<>(values);
    all.addAll(List.of(more));
    return new Release(
        name,
        namespace,
        syncerServiceAccount,
        webhookServiceAccount,
        peers,
        fullname,
        appName,
        commonLabels,
        all);
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

  /** Every {@code --set key=value} of the install, as Helm is given them. */
  public List<String> sets() {
    List<String> sets = new ArrayList<>();
    if (!fullname.equals(name)) {
      sets.add("fullnameOverride=" + fullname);
    }
    if (!appName.equals(CHART_NAME)) {
      sets.add("nameOverride=" + appName);
    }
    commonLabels.forEach((k, v) -> sets.add("commonLabels." + k.replace(".", "\\.") + "=" + v));
    if (!syncerServiceAccount.equals(fullname + "-secret-syncer")) {
      sets.add("syncer.serviceAccount.name=" + syncerServiceAccount);
    }
    if (!webhookServiceAccount.equals(fullname + "-webhook")) {
      sets.add("webhook.serviceAccount.name=" + webhookServiceAccount);
    }
    for (int i = 0; i < peers.size(); i++) {
      sets.add("syncer.peers[" + i + "].namespace=" + peers.get(i).namespace());
      sets.add("syncer.peers[" + i + "].serviceAccount=" + peers.get(i).serviceAccount());
    }
    sets.addAll(values);
    return sets;
  }

  /** The value a {@code --set} of {@code key} gives, if the release sets it. */
  public java.util.Optional<String> value(String key) {
    String found = null;
    for (String set : sets()) {
      if (set.startsWith(key + "=")) {
        found = set.substring(key.length() + 1);
      }
    }
    return java.util.Optional.ofNullable(found);
  }
}
