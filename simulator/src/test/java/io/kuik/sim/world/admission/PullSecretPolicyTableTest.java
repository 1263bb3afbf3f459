package io.kuik.sim.world.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.hosts.SyncerHost;
import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.Identity;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The chart's pull-secret policy, loaded from chart/files and evaluated by {@link PolicyAdmission},
 * against every combination of identity, write, name, namespace and change. The expected outcome of
 * each row comes from {@link #documented}, written rule by rule from what the policy is documented
 * to allow (docs/behaviour.md#what-the-syncer-may-write), not from the policy's CEL.
 */
class PullSecretPolicyTableTest {

  /** A release that lists one peer, the release installed in kuik-b. */
  private static final Release RELEASE =
      Release.DEFAULT.withPeers(List.of(new Release.Peer("kuik-b", "kuik-b-secret-syncer")));

  private static final PolicyAdmission ADMISSION =
      new PolicyAdmission(
          new InMemoryClusterState()
              .putAll(ChartFiles.locate().load(ChartFiles.ADMISSION_POLICY, RELEASE)));

  /** Who writes. */
  enum Who {
    /** This release's syncer, from its pod: its token is bound to the pod. */
    SYNCER(SyncerHost.podIdentity(RELEASE.namespace(), RELEASE.syncerServiceAccount())),
    /** This release's syncer ServiceAccount with a token bound to no pod (a legacy token). */
    SYNCER_LEGACY_TOKEN(
        Identity.serviceAccount(RELEASE.namespace(), RELEASE.syncerServiceAccount())),
    /** The syncer of the peer release in kuik-b, from its pod. */
    PEER(SyncerHost.podIdentity("kuik-b", "kuik-b-secret-syncer")),
    PERSON(Identity.person("alice", "system:masters")),
    GARBAGE_COLLECTOR(Identity.GARBAGE_COLLECTOR),
    VELERO(Identity.serviceAccount("velero", "velero")),
    HELM(Identity.serviceAccount("ci", "helm-deployer")),
    ANOTHER_CONTROLLER(Identity.serviceAccount("cert-manager", "cert-manager"));

    final Identity identity;

    Who(Identity identity) {
      this.identity = identity;
    }
  }

  /** How the Secret is written; all but CREATE and DELETE reach admission as an UPDATE. */
  enum Write {
    CREATE,
    /** A create with metadata.generateName: the registry names it before validating admission. */
    CREATE_WITH_GENERATED_NAME,
    UPDATE,
    REPLACE,
    APPLY_AS_UPDATE,
    DELETE
  }

  enum NameClass {
    KUIK_INJECT("kuik-inject-imagemirror-prod-mirror"),
    KUIK_PROVIDER("kuik-provider-ecr-prod"),
    OTHER("registry-pull");

    final String secretName;

    NameClass(String secretName) {
      this.secretName = secretName;
    }
  }

  enum Where {
    INSTALL_NAMESPACE(RELEASE.namespace()),
    OTHER_NAMESPACE("team-a");

    final String namespace;

    Where(String namespace) {
      this.namespace = namespace;
    }
  }

  /**
   * How the written Secret differs from the one the syncer writes (for a create) or from the stored
   * one (for the other writes).
   */
  enum Change {
    TYPE,
    DATA,
    LABELS,
    IMMUTABLE,
    OWNER_REFERENCES_REMOVED,
    OWNER_REFERENCES_CHANGED,
    FINALIZER_ADDED,
    FINALIZER_REMOVED,
    NOTHING
  }

  record Row(Who who, Write write, NameClass name, Where where, Change change) {
    @Override
    public String toString() {
      return String.join(
              " ",
              words(who),
              words(write),
              name.secretName,
              "in",
              where.namespace,
              "changing",
              words(change))
          + ", expect "
          + (documented(this) ? "admitted" : "refused");
    }

    private static String words(Enum<?> value) {
      return value.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
  }

  static Stream<Row> rows() {
    var rows = new ArrayList<Row>();
    for (Who who : Who.values()) {
      for (Write write : Write.values()) {
        for (NameClass name : NameClass.values()) {
          for (Where where : Where.values()) {
            for (Change change : Change.values()) {
              rows.add(new Row(who, write, name, where, change));
            }
          }
        }
      }
    }
    return rows.stream();
  }

  /** The documented rules, one by one. */
  static boolean documented(Row row) {
    // Deletions pass unchecked, so deleting a resource still removes its Secrets; the one
    // exception is this release's syncer account, which never deletes: the policy refuses its
    // deletions, so that the delete it holds where OwnerReferencesPermissionEnforcement runs stays
    // unused (docs/decisions/0006-admission-policy-and-rbac.md). A peer's are its own release's.
    if (row.write() == Write.DELETE) {
      return row.who() != Who.SYNCER && row.who() != Who.SYNCER_LEGACY_TOKEN;
    }
    // A syncer account writes nothing with a token bound to no pod, whatever the Secret.
    if (row.who() == Who.SYNCER_LEGACY_TOKEN) {
      return false;
    }
    if (row.who() == Who.SYNCER || row.who() == Who.PEER) {
      // A syncer's own creates and updates need the dockerconfigjson type,
      boolean rightType = row.change() != Change.TYPE;
      // the managed-by label,
      boolean labelled = row.change() != Change.LABELS;
      // and a reserved name: kuik-inject-* anywhere, kuik-provider-* only in its own install
      // namespace (the peer's, kuik-b, is neither of the table's).
      boolean rightName =
          row.name() == NameClass.KUIK_INJECT
              || (row.name() == NameClass.KUIK_PROVIDER
                  && row.who() == Who.SYNCER
                  && row.where() == Where.INSTALL_NAMESPACE);
      return rightType && labelled && rightName;
    }
    // Secrets outside the reserved names never meet the policy.
    if (row.name() == NameClass.OTHER) {
      return true;
    }
    // Everyone else is refused both reserved prefixes, in all namespaces, a generated name too...
    if (row.write() == Write.CREATE || row.write() == Write.CREATE_WITH_GENERATED_NAME) {
      return false;
    }
    // ...except updates that keep type, data, labels and immutability as they were
    boolean meaningUnchanged =
        EnumSet.of(
                Change.NOTHING,
                Change.OWNER_REFERENCES_REMOVED,
                Change.OWNER_REFERENCES_CHANGED,
                Change.FINALIZER_ADDED,
                Change.FINALIZER_REMOVED)
            .contains(row.change());
    if (!meaningUnchanged) {
      return false;
    }
    // and add no finalizer (one would keep the Secret after its resource is deleted):
    if (row.change() == Change.FINALIZER_ADDED) {
      return false;
    }
    // a rewrite that keeps the owner references too (kubectl replace for a key rotation), or takes
    // a finalizer away,
    if (row.change() == Change.NOTHING || row.change() == Change.FINALIZER_REMOVED) {
      return true;
    }
    // or the garbage collector taking an owner reference away.
    return row.who() == Who.GARBAGE_COLLECTOR && row.change() == Change.OWNER_REFERENCES_REMOVED;
  }

  @ParameterizedTest(name = "if {0}")
  @MethodSource("rows")
  void theChartsPolicyDecidesAsDocumented(Row row) {
    boolean admitted = ADMISSION.validate(request(row)).admitted();

    assertEquals(
        documented(row), admitted, () -> row + ", but " + ADMISSION.validate(request(row)));
  }

  @Test
  void theTableHoldsEveryCombination() {
    List<Row> rows = rows().toList();
    long admitted = rows.stream().filter(PullSecretPolicyTableTest::documented).count();
    System.out.printf(
        "pull-secret policy table: %d rows (%d admitted, %d refused)%n",
        rows.size(), admitted, rows.size() - admitted);

    assertEquals(
        Who.values().length
            * Write.values().length
            * NameClass.values().length
            * Where.values().length
            * Change.values().length,
        rows.stream().distinct().count());
    assertEquals(2592, rows.size());
  }

  // ---- the objects of a row

  /** The Secret as the syncer writes it. */
  static ObjectNode stored(NameClass name, Where where) {
    return AdmissionRequests.yaml(
        """
        apiVersion: v1
        kind: Secret
        type: kubernetes.io/dockerconfigjson
        metadata:
          name: %s
          namespace: %s
          resourceVersion: "7"
          labels: {app.kubernetes.io/managed-by: kuik-secret-syncer}
          ownerReferences:
            - {apiVersion: kuik.enix.io/v1alpha1, kind: ImageMirror, name: prod-mirror, uid: 0d5e-1, controller: true}
          managedFields:
            - {manager: kuik-secret-syncer, operation: Apply, apiVersion: v1}
        data:
          .dockerconfigjson: eyJhdXRocyI6e319
        """
            .formatted(name.secretName, where.namespace));
  }

  static ObjectNode changed(ObjectNode secret, Change change) {
    ObjectNode copy = secret.deepCopy();
    ObjectNode metadata = (ObjectNode) copy.get("metadata");
    switch (change) {
      case TYPE -> copy.put("type", "Opaque");
      case DATA ->
          ((ObjectNode) copy.get("data")).put(".dockerconfigjson", "eyJhdXRocyI6eyJ4Ijp7fX19");
      case LABELS ->
          ((ObjectNode) metadata.get("labels")).put("app.kubernetes.io/managed-by", "Helm");
      case IMMUTABLE -> copy.put("immutable", true);
      case OWNER_REFERENCES_REMOVED -> metadata.remove("ownerReferences");
      case OWNER_REFERENCES_CHANGED ->
          ((ObjectNode) metadata.get("ownerReferences").get(0))
              .put("name", "other-mirror")
              .put("uid", "9f3a-2");
      case FINALIZER_ADDED -> metadata.putArray("finalizers").add("example.com/keep");
      case FINALIZER_REMOVED, NOTHING -> {}
    }
    return copy;
  }

  /** The managedFields entry each kind of write leaves: every write changes them. */
  private static ObjectNode written(ObjectNode secret, Write write, Who who) {
    ObjectNode copy = secret.deepCopy();
    ArrayNode managedFields = (ArrayNode) copy.get("metadata").get("managedFields");
    switch (write) {
      case UPDATE ->
          managedFields.addObject().put("manager", "kubectl-edit").put("operation", "Update");
      case REPLACE ->
          managedFields.addObject().put("manager", "kubectl-replace").put("operation", "Update");
      case APPLY_AS_UPDATE ->
          managedFields.addObject().put("manager", who.identity.user()).put("operation", "Apply");
      default -> {}
    }
    return copy;
  }

  static AdmissionRequest request(Row row) {
    ObjectNode stored = stored(row.name(), row.where());
    ObjectNode old = stored.deepCopy();
    if (row.change() == Change.FINALIZER_REMOVED) {
      // The stored Secret carries a finalizer the write leaves out.
      ((ObjectNode) old.get("metadata")).putArray("finalizers").add("example.com/keep");
    }
    Identity who = row.who().identity;
    switch (row.write()) {
      case CREATE:
      case CREATE_WITH_GENERATED_NAME:
        ObjectNode created = changed(stored, row.change());
        ObjectNode metadata = (ObjectNode) created.get("metadata");
        metadata.remove("resourceVersion");
        metadata.remove("managedFields");
        if (row.write() == Write.CREATE) {
          return AdmissionRequests.create(who, created);
        }
        // What validating admission sees: the name the registry generated from the prefix.
        metadata.put("generateName", row.name().secretName + "-");
        metadata.put("name", row.name().secretName + "-x7k2p");
        return AdmissionRequests.createWithGeneratedName(who, created);
      case DELETE:
        return AdmissionRequests.delete(who, old);
      case APPLY_AS_UPDATE:
        return AdmissionRequests.applyAsUpdate(
            who, old, written(changed(stored, row.change()), row.write(), row.who()));
      default:
        return AdmissionRequests.update(
            who, old, written(changed(stored, row.change()), row.write(), row.who()));
    }
  }
}
