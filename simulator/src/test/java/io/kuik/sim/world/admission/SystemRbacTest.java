package io.kuik.sim.world.admission;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.Verb;
import org.junit.jupiter.api.Test;

/** The built-in RBAC a real cluster bootstraps, as far as the simulator's actors need it. */
class SystemRbacTest {

  private final RbacAuthorizer rbac =
      new RbacAuthorizer(new InMemoryClusterState().putAll(SystemRbac.objects()));

  private boolean allowed(Identity who, Verb verb, ResourceType type, String ns, String name) {
    return allowed(who, verb, type, ns, name, null);
  }

  private boolean allowed(
      Identity who, Verb verb, ResourceType type, String ns, String name, String subresource) {
    return rbac.authorize(new RequestAttributes(who, verb, type, ns, name, subresource)).allowed();
  }

  @Test
  void systemMastersMayDoEverything() {
    var admin = Identity.person("velero-admin", "system:masters");
    for (ResourceType type : ResourceType.ALL) {
      for (Verb verb : Verb.values()) {
        assertTrue(
            allowed(admin, verb, type, type.namespaced() ? "team-a" : null, "x"),
            () -> verb + " " + type.resource());
      }
    }
  }

  @Test
  void garbageCollectorAndNamespaceControllerMayDoEverything() {
    for (Identity controller :
        new Identity[] {Identity.GARBAGE_COLLECTOR, Identity.NAMESPACE_CONTROLLER}) {
      assertTrue(allowed(controller, Verb.DELETE, ResourceType.SECRET, "team-a", "kuik-inject-x"));
      assertTrue(allowed(controller, Verb.PATCH, ResourceType.SECRET, "team-a", "kuik-inject-x"));
      assertTrue(allowed(controller, Verb.LIST, ResourceType.IMAGE_MIRROR, null, null));
      assertTrue(allowed(controller, Verb.DELETE, ResourceType.NAMESPACE, null, "team-a"));
    }
  }

  @Test
  void nodesMayGetSecretsAndPodsAndUpdatePodStatus() {
    var node = Identity.node("node-1");

    assertTrue(allowed(node, Verb.GET, ResourceType.SECRET, "team-a", "kuik-inject-x"));
    assertTrue(allowed(node, Verb.GET, ResourceType.POD, "team-a", "web"));
    assertTrue(allowed(node, Verb.UPDATE, ResourceType.POD, "team-a", "web", "status"));
  }

  @Test
  void nodesMayNeitherListSecretsNorWriteThemNorChangePodSpecs() {
    var node = Identity.node("node-1");

    assertFalse(allowed(node, Verb.LIST, ResourceType.SECRET, "team-a", null));
    assertFalse(allowed(node, Verb.PATCH, ResourceType.SECRET, "team-a", "kuik-inject-x"));
    assertFalse(allowed(node, Verb.UPDATE, ResourceType.POD, "team-a", "web"));
  }

  @Test
  void anyOtherIdentityIsGrantedNothing() {
    var person = Identity.person("alice");

    assertFalse(allowed(person, Verb.GET, ResourceType.POD, "team-a", "web"));
    assertFalse(
        allowed(
            Identity.serviceAccount("velero", "velero"),
            Verb.CREATE,
            ResourceType.SECRET,
            "team-a",
            null));
  }
}
