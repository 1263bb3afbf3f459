package io.kuik.sim.actors;

import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.object.YamlDocuments;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.node.ObjectNode;

/**
 * Velero backing up and restoring the cluster's Secrets, as its server does (vmware-tanzu/velero
 * {@code pkg/restore/restore.go}), under its ServiceAccount {@code velero/velero} bound to {@code
 * cluster-admin} (what its Helm chart installs, see {@link #installObjects()}).
 *
 * <p>A backup lists the Secrets of every namespace that match its label selector ({@code velero
 * backup create --selector}), leaving out those labelled {@code
 * velero.io/exclude-from-backup=true}, and keeps copies.
 *
 * <p>A restore takes the items in backup order (namespace, then name). It creates a missing
 * namespace first, then each item with its metadata reset: {@code uid}, {@code resourceVersion},
 * {@code creationTimestamp}, {@code generation}, {@code ownerReferences} and the other
 * server-assigned fields are dropped, as are {@code managedFields} and {@code status}; labels
 * {@code velero.io/backup-name} and {@code velero.io/restore-name} are added. When the create is
 * refused, Velero reads the object: if it exists, the restore skips it, with a warning when the
 * in-cluster version differs from the backed-up one; if not, the refusal is an error naming the
 * item and carrying the API server's message. A restore with errors ends PartiallyFailed, one
 * without Completed (warnings included).
 */
public final class Velero {

  public static final Identity IDENTITY = Identity.serviceAccount("velero", "velero");
  public static final String EXCLUDE_LABEL = "velero.io/exclude-from-backup";
  public static final String BACKUP_NAME_LABEL = "velero.io/backup-name";
  public static final String RESTORE_NAME_LABEL = "velero.io/restore-name";

  private static final String INSTALL =
      """
      apiVersion: v1
      kind: Namespace
      metadata: {name: velero}
      ---
      apiVersion: v1
      kind: ServiceAccount
      metadata: {name: velero, namespace: velero}
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: {name: velero}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
      subjects:
        - {kind: ServiceAccount, name: velero, namespace: velero}
      """;

  // Server-assigned metadata that a restore must not send (restore.go resetMetadata).
  private static final List<String> RESET =
      List.of(
          "generateName",
          "selfLink",
          "uid",
          "resourceVersion",
          "generation",
          "creationTimestamp",
          "deletionTimestamp",
          "deletionGracePeriodSeconds",
          "ownerReferences",
          "managedFields");

  private static final DateTimeFormatter RESTORE_SUFFIX =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  /** A backup: its name, when it was taken, and copies of the Secrets it holds. */
  public record Backup(String name, Instant at, List<ObjectNode> items) {
    public Backup {
      Objects.requireNonNull(name, "name");
      items = items.stream().map(ObjectNode::deepCopy).toList();
    }

    @Override
    public List<ObjectNode> items() {
      return items.stream().map(ObjectNode::deepCopy).toList();
    }

    /** {@code namespace/name} of every item, in backup order. */
    public List<String> keys() {
      return items.stream().map(Meta::key).toList();
    }
  }

  /** A restore's phase, as {@code velero restore get} shows it. */
  public enum Phase {
    COMPLETED("Completed"),
    PARTIALLY_FAILED("PartiallyFailed");

    private final String value;

    Phase(String value) {
      this.value = value;
    }

    public String value() {
      return value;
    }
  }

  /**
   * What {@code velero restore describe} reports: the phase, the items created ({@code
   * secrets/<namespace>/<name>}), and the warnings and errors by namespace, worded as Velero words
   * them.
   */
  public record RestoreResult(
      String name,
      String backup,
      Phase phase,
      List<String> restored,
      Map<String, List<String>> warnings,
      Map<String, List<String>> errors) {

    public RestoreResult {
      restored = List.copyOf(restored);
      warnings = frozen(warnings);
      errors = frozen(errors);
    }

    public List<String> allErrors() {
      return errors.values().stream().flatMap(List::stream).toList();
    }

    public List<String> allWarnings() {
      return warnings.values().stream().flatMap(List::stream).toList();
    }

    private static Map<String, List<String>> frozen(Map<String, List<String>> byNamespace) {
      Map<String, List<String>> copy = new TreeMap<>();
      byNamespace.forEach((k, v) -> copy.put(k, List.copyOf(v)));
      return Collections.unmodifiableMap(copy);
    }
  }

  private final ApiServer api;
  private final Set<String> restoreNames = new TreeSet<>();

  public Velero(ApiServer api) {
    this.api = Objects.requireNonNull(api, "api");
  }

  /** The velero namespace, its ServiceAccount and the cluster-admin binding, to create at start. */
  public static List<ObjectNode> installObjects() {
    return YamlDocuments.parse(INSTALL, "velero install");
  }

  /** {@code velero backup create <name> --include-resources secrets}. */
  public Backup backup(String name) {
    return backup(name, LabelSelector.EVERYTHING);
  }

  /** {@code velero backup create <name> --include-resources secrets --selector <selector>}. */
  public Backup backup(String name, LabelSelector selector) {
    List<ObjectNode> items = new ArrayList<>();
    for (ObjectNode secret : api.list(IDENTITY, ResourceType.SECRET, null, selector).items()) {
      if (!"true".equals(Meta.labels(secret).get(EXCLUDE_LABEL))) {
        items.add(secret);
      }
    }
    return new Backup(name, api.loop().now(), items);
  }

  /**
   * A backup of every Secret but those labelled {@code key=value}: {@code --selector 'key!=value'},
   * the exclusion the kuik documentation recommends for its own Secrets.
   */
  public Backup backupExcluding(String name, String key, String value) {
    return backup(
        name,
        new LabelSelector(
            List.of(
                new LabelSelector.Requirement(
                    key, LabelSelector.Operator.NOT_EQUALS, List.of(value)))));
  }

  /** {@code velero restore create --from-backup <backup>}. */
  public RestoreResult restore(Backup backup) {
    String name = restoreName(backup.name());
    List<String> restored = new ArrayList<>();
    Map<String, List<String>> warnings = new TreeMap<>();
    Map<String, List<String>> errors = new TreeMap<>();
    Set<String> ensured = new TreeSet<>();
    for (ObjectNode item : backup.items()) {
      String namespace = Meta.namespace(item);
      String id = "secrets/" + namespace + "/" + Meta.name(item);
      if (ensured.add(namespace)) {
        try {
          ensureNamespace(namespace);
        } catch (ApiException e) {
          add(errors, namespace, "error ensuring namespace " + namespace + ": " + e.getMessage());
          continue;
        }
      }
      ObjectNode object = prepared(item, backup.name(), name);
      try {
        api.create(IDENTITY, object);
        restored.add(id);
      } catch (ApiException refused) {
        Optional<ObjectNode> inCluster = existing(namespace, Meta.name(item));
        if (inCluster.isEmpty()) {
          add(errors, namespace, "error restoring " + id + ": " + refused.getMessage());
        } else if (!prepared(inCluster.get(), backup.name(), name).equals(object)) {
          add(
              warnings,
              namespace,
              "could not restore, Secret \""
                  + Meta.name(item)
                  + "\" already exists. Warning: the in-cluster version is different than the"
                  + " backed-up version.");
        }
      }
    }
    Phase phase = errors.isEmpty() ? Phase.COMPLETED : Phase.PARTIALLY_FAILED;
    return new RestoreResult(name, backup.name(), phase, restored, warnings, errors);
  }

  private Optional<ObjectNode> existing(String namespace, String name) {
    try {
      return api.find(IDENTITY, ResourceType.SECRET, namespace, name);
    } catch (ApiException e) {
      return Optional.empty();
    }
  }

  private void ensureNamespace(String namespace) {
    if (api.find(IDENTITY, ResourceType.NAMESPACE, null, namespace).isEmpty()) {
      ObjectNode created = Json.object();
      created.put("apiVersion", "v1");
      created.put("kind", "Namespace");
      created.putObject("metadata").put("name", namespace);
      api.create(IDENTITY, created);
    }
  }

  /** The object as Velero sends it: metadata reset, no status, the restore's labels added. */
  private static ObjectNode prepared(ObjectNode item, String backup, String restore) {
    ObjectNode object = item.deepCopy();
    ObjectNode meta = Meta.metadata(object);
    RESET.forEach(meta::remove);
    object.remove("status");
    ObjectNode labels = Json.child(meta, "labels");
    labels.put(BACKUP_NAME_LABEL, validLabelValue(backup));
    labels.put(RESTORE_NAME_LABEL, validLabelValue(restore));
    return object;
  }

  private String restoreName(String backup) {
    String base = backup + "-" + RESTORE_SUFFIX.format(api.loop().now());
    String name = base;
    for (int i = 2; !restoreNames.add(name); i++) {
      name = base + "-" + i;
    }
    return name;
  }

  /**
   * Velero's label.GetValidName: a value over 63 characters is cut to 57 plus 6 hex of its hash.
   */
  static String validLabelValue(String value) {
    if (value.length() <= 63) {
      return value;
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
      return value.substring(0, 57) + HexFormat.of().formatHex(digest).substring(0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }

  private static void add(Map<String, List<String>> byNamespace, String namespace, String line) {
    byNamespace.computeIfAbsent(namespace, n -> new ArrayList<>()).add(line);
  }
}
