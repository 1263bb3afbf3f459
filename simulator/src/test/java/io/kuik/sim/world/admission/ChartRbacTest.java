package io.kuik.sim.world.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.Verb;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The chart's RBAC, loaded from chart/files and enforced by {@link RbacAuthorizer}: what the syncer
 * may read (docs/behaviour.md#what-the-syncer-may-read) and write
 * (docs/behaviour.md#what-the-syncer-may-write).
 */
class ChartRbacTest {

  private static final Release RELEASE = Release.DEFAULT;
  private static final String INSTALL = RELEASE.namespace();
  private static final Identity SYNCER =
      Identity.serviceAccount(INSTALL, RELEASE.syncerServiceAccount());
  private static final Identity WEBHOOK =
      Identity.serviceAccount(INSTALL, RELEASE.webhookServiceAccount());

  private final RbacAuthorizer rbac;

  ChartRbacTest() {
    ChartFiles chart = ChartFiles.locate();
    var state = new InMemoryClusterState();
    state.putAll(chart.load(ChartFiles.SYNCER_RBAC, RELEASE));
    state.putAll(chart.load(ChartFiles.WEBHOOK_RBAC, RELEASE));
    state.putAll(SystemRbac.objects());
    rbac = new RbacAuthorizer(state);
  }

  private boolean allowed(Identity who, Verb verb, ResourceType type, String ns, String name) {
    return allowed(who, verb, type, ns, name, null);
  }

  private boolean allowed(
      Identity who, Verb verb, ResourceType type, String ns, String name, String subresource) {
    return rbac.authorize(new RequestAttributes(who, verb, type, ns, name, subresource)).allowed();
  }

  /**
   * The subresources RBAC can name: {@code status} of every kind, {@code finalize} of namespaces.
   */
  private static final List<String> SUBRESOURCES = List.of("", "status", "finalize");

  /**
   * Every request the identity is allowed, over every verb and type the simulator serves, in the
   * install namespace, another namespace and cluster-wide, as "verb resource where".
   */
  private Set<String> everythingAllowed(Identity who) {
    var allowed = new TreeSet<String>();
    for (ResourceType type : ResourceType.ALL) {
      List<String> scopes = new ArrayList<>(List.of("cluster"));
      if (type.namespaced()) {
        scopes.addAll(List.of(INSTALL, "team-a"));
      }
      for (Verb verb : Verb.values()) {
        for (String scope : scopes) {
          for (String subresource : SUBRESOURCES) {
            String namespace = scope.equals("cluster") ? null : scope;
            boolean named = verb != Verb.LIST && verb != Verb.WATCH && verb != Verb.CREATE;
            String sub = subresource.isEmpty() ? null : subresource;
            if (allowed(who, verb, type, namespace, named ? "x" : null, sub)) {
              String resource = sub == null ? type.resource() : type.resource() + "/" + sub;
              allowed.add(verb.rbacName() + " " + resource + " " + scope);
            }
          }
        }
      }
    }
    return allowed;
  }

  @Test
  void syncerMayCreateAndPatchSecretsInEveryNamespace() {
    assertTrue(allowed(SYNCER, Verb.CREATE, ResourceType.SECRET, "team-a", null));
    assertTrue(allowed(SYNCER, Verb.PATCH, ResourceType.SECRET, "team-a", "kuik-inject-x"));
    assertTrue(allowed(SYNCER, Verb.PATCH, ResourceType.SECRET, INSTALL, "kuik-provider-x"));
  }

  @Test
  void syncerNeverReadsUpdatesOrDeletesASecretOutsideTheClusterResourceNamespace() {
    for (Verb verb : List.of(Verb.GET, Verb.UPDATE, Verb.DELETE)) {
      assertFalse(
          allowed(SYNCER, verb, ResourceType.SECRET, "team-a", "kuik-inject-x"), verb::name);
    }
    assertFalse(allowed(SYNCER, Verb.LIST, ResourceType.SECRET, "team-a", null));
    assertFalse(allowed(SYNCER, Verb.WATCH, ResourceType.SECRET, null, null));
  }

  @Test
  void syncerReadsSecretsOfTheClusterResourceNamespace() {
    assertTrue(allowed(SYNCER, Verb.GET, ResourceType.SECRET, INSTALL, "example-pull"));
    assertTrue(allowed(SYNCER, Verb.LIST, ResourceType.SECRET, INSTALL, null));
    assertTrue(allowed(SYNCER, Verb.WATCH, ResourceType.SECRET, INSTALL, null));
  }

  @Test
  void syncerIsGrantedExactlyWhatItNeedsAndNothingMore() {
    var expected = new TreeSet<String>();
    for (String verb : List.of("create", "patch")) {
      expected.addAll(
          List.of(
              verb + " secrets cluster",
              verb + " secrets " + INSTALL,
              verb + " secrets team-a",
              verb + " events cluster",
              verb + " events " + INSTALL,
              verb + " events team-a"));
    }
    for (String verb : List.of("get", "list", "watch")) {
      expected.addAll(
          List.of(
              verb + " secrets " + INSTALL,
              verb + " pods cluster",
              verb + " pods " + INSTALL,
              verb + " pods team-a",
              verb + " namespaces cluster",
              verb + " imagealternatives cluster",
              verb + " imagemirrors cluster"));
    }
    // Any Lease may be created (RBAC cannot name what a create makes); the rest by name, below.
    expected.add("create leases " + INSTALL);
    // The routing resources' status, through the status subresource only.
    expected.add("patch imagealternatives/status cluster");
    expected.add("patch imagemirrors/status cluster");

    assertEquals(expected, everythingAllowed(SYNCER));
  }

  /**
   * What the syncer holds by name only: its release's own Lease, and a list and watch of its
   * admission policy and binding (a request with the field selector metadata.name, which the API
   * server authorizes as one for that name).
   */
  @Test
  void syncerHoldsItsOwnLeaseAndWatchesItsOwnPolicyByNameAndNothingElseOfThem() {
    for (Verb verb : List.of(Verb.GET, Verb.PATCH)) {
      assertTrue(allowed(SYNCER, verb, ResourceType.LEASE, INSTALL, "kuik-secret-syncer"));
      assertFalse(allowed(SYNCER, verb, ResourceType.LEASE, INSTALL, "another-release-lease"));
    }
    for (ResourceType type :
        List.of(
            ResourceType.VALIDATING_ADMISSION_POLICY,
            ResourceType.VALIDATING_ADMISSION_POLICY_BINDING)) {
      for (Verb verb : List.of(Verb.LIST, Verb.WATCH)) {
        assertTrue(allowed(SYNCER, verb, type, null, "kuik-pull-secrets"), verb + " " + type);
        assertFalse(allowed(SYNCER, verb, type, null, null), "every policy: " + verb + " " + type);
        assertFalse(allowed(SYNCER, verb, type, null, "kuik-pod-gates"), verb + " " + type);
      }
      assertFalse(allowed(SYNCER, Verb.GET, type, null, "kuik-pull-secrets"), "no get: a watch");
    }
  }

  @Test
  void syncerMayPatchTheStatusOfRoutingResourcesButNotTheResourcesThemselves() {
    for (ResourceType type : List.of(ResourceType.IMAGE_ALTERNATIVE, ResourceType.IMAGE_MIRROR)) {
      assertTrue(allowed(SYNCER, Verb.PATCH, type, null, "acme", "status"));
      assertFalse(allowed(SYNCER, Verb.UPDATE, type, null, "acme", "status"));
      assertFalse(allowed(SYNCER, Verb.PATCH, type, null, "acme"));
      assertFalse(allowed(SYNCER, Verb.UPDATE, type, null, "acme"));
      assertFalse(allowed(WEBHOOK, Verb.PATCH, type, null, "acme", "status"));
    }
  }

  @Test
  void webhookIsGrantedOnlyReadsOfRoutingResourcesNamespacesAndItsOwnSecrets() {
    var expected = new TreeSet<String>();
    for (String verb : List.of("get", "list", "watch")) {
      expected.addAll(
          List.of(
              verb + " secrets " + INSTALL,
              verb + " namespaces cluster",
              verb + " imagealternatives cluster",
              verb + " imagemirrors cluster"));
    }

    assertEquals(expected, everythingAllowed(WEBHOOK));
  }

  @Test
  void anotherReleaseGrantsItsOwnServiceAccountsInItsOwnNamespace() {
    var other = new Release("edge", "kuik-edge");
    var state = new InMemoryClusterState();
    state.putAll(ChartFiles.locate().load(ChartFiles.SYNCER_RBAC, other));
    var otherRbac = new RbacAuthorizer(state);
    var otherSyncer = io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-edge", "edge-secret-syncer");

    assertTrue(
        otherRbac
            .authorize(
                new RequestAttributes(
                    otherSyncer, Verb.GET, ResourceType.SECRET, "kuik-edge", "pull", null))
            .allowed());
    assertFalse(
        otherRbac
            .authorize(
                new RequestAttributes(
                    SYNCER, Verb.GET, ResourceType.SECRET, "kuik-edge", "pull", null))
            .allowed());
  }
}
