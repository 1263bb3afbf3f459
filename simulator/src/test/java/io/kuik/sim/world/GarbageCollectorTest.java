package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.ValidatingAdmission;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The garbage collector against kubernetes/kubernetes {@code
 * pkg/controller/garbagecollector/garbagecollector.go} ({@code attemptToDeleteItem}, {@code
 * processDeletingDependentsItem}, {@code attemptToOrphanWorker}) and the registry's deletion
 * finalizers ({@code staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go}, {@code
 * deletionFinalizersForGarbageCollection}).
 */
class GarbageCollectorTest {

  private final Fixture f = new Fixture().withCrds();
  private final ObjectNode mirror;

  GarbageCollectorTest() {
    f.namespace("team-a");
    f.namespace("team-b");
    mirror =
        f.api.create(
            ADMIN,
            Json.yaml(
                "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageMirror\nmetadata: {name: prod}\nspec: {destination: {path: registry.example.com/m/}}"));
  }

  private ObjectNode ownedSecret(String namespace, ObjectNode... owners) {
    ObjectNode s = Fixture.opaque(namespace, "kuik-inject-imagemirror-prod", "k", "v");
    var refs = s.withObjectProperty("metadata").putArray("ownerReferences");
    for (ObjectNode owner : owners) {
      refs.add(Fixture.ownerRef(owner));
    }
    return f.api.create(ADMIN, s);
  }

  /** A dependent Secret held by its own finalizer, referring to the mirror with blocking set. */
  private ObjectNode heldBlockingSecret(String namespace, boolean block) {
    ObjectNode s = Fixture.opaque(namespace, "kuik-inject-imagemirror-prod", "k", "v");
    ObjectNode meta = s.withObjectProperty("metadata");
    meta.putArray("ownerReferences").add(Fixture.ownerRef(mirror).put("blockOwnerDeletion", block));
    meta.putArray("finalizers").add("example.com/hold");
    return f.api.create(ADMIN, s);
  }

  private void release(String namespace) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putArray("finalizers");
    f.api.mergePatch(
        ADMIN, ResourceType.SECRET, namespace, "kuik-inject-imagemirror-prod", patch, "kubectl");
  }

  private java.util.Optional<ObjectNode> theMirror() {
    return f.api.find(ADMIN, ResourceType.IMAGE_MIRROR, null, "prod");
  }

  private boolean exists(String namespace) {
    return f.api
        .find(ADMIN, ResourceType.SECRET, namespace, "kuik-inject-imagemirror-prod")
        .isPresent();
  }

  @Test
  void backgroundDeletionDeletesDependentsInEveryNamespace() {
    ownedSecret("team-a", mirror);
    ownedSecret("team-b", mirror);
    f.api.delete(ADMIN, ResourceType.IMAGE_MIRROR, null, "prod");
    assertTrue(exists("team-a"), "the collector acts after its delay, not inside the delete");
    f.loop.runFor(Duration.ofSeconds(5));
    assertFalse(exists("team-a"));
    assertFalse(exists("team-b"));
    Actor gc = f.trace.actorOf(Identity.GARBAGE_COLLECTOR);
    assertEquals(
        2,
        f.trace.requests().stream()
            .filter(r -> r.actor().equals(gc) && r.kind() == RequestKind.DELETE && r.code() == 200)
            .count());
  }

  @Test
  void aDependentWithAnotherLiveOwnerOnlyLosesTheDanglingReference() {
    ObjectNode other =
        f.api.create(
            ADMIN,
            Json.yaml(
                "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageMirror\nmetadata: {name: other}\nspec: {destination: {path: registry.example.com/m/}}"));
    ownedSecret("team-a", mirror, other);
    f.api.delete(ADMIN, ResourceType.IMAGE_MIRROR, null, "prod");
    f.loop.runFor(Duration.ofSeconds(5));
    ObjectNode s = f.get(ResourceType.SECRET, "team-a", "kuik-inject-imagemirror-prod");
    assertEquals(1, Meta.ownerReferences(s).size());
    assertEquals(Meta.uid(other), Meta.ownerReferences(s).get(0).path("uid").asString());
  }

  @Test
  void anObjectWhoseOwnerIsGoneWhenItArrivesIsCollected() {
    ObjectNode stale = mirror.deepCopy();
    stale.withObjectProperty("metadata").put("uid", "00000000-0000-4000-8000-000000000000");
    ownedSecret("team-a", stale); // e.g. restored from a backup of another cluster
    f.loop.runFor(Duration.ofSeconds(5));
    assertFalse(exists("team-a"));
  }

  @Test
  void orphaningRemovesTheOwnerReferenceAsTheGarbageCollectorThroughAdmission() {
    ownedSecret("team-a", mirror);
    List<String> seen = new ArrayList<>();
    boolean[] refuse = {true};
    f.api.setValidatingAdmission(
        r -> {
          if (r.operation() == Operation.UPDATE
              && r.attributes().type().equals(ResourceType.SECRET)) {
            seen.add(r.attributes().identity().user());
            if (refuse[0]) {
              return ValidatingAdmission.Verdict.refuse("policy says no");
            }
          }
          return ValidatingAdmission.Verdict.ADMIT;
        });
    ObjectNode marked =
        f.api.delete(ADMIN, ResourceType.IMAGE_MIRROR, null, "prod", DeleteOptions.orphan());
    assertTrue(Meta.finalizers(marked).contains("orphan"));
    f.loop.runFor(Duration.ofSeconds(10));
    assertTrue(seen.contains(Identity.GARBAGE_COLLECTOR.user()));
    assertEquals(
        1,
        Meta.ownerReferences(f.get(ResourceType.SECRET, "team-a", "kuik-inject-imagemirror-prod"))
            .size());
    assertTrue(
        f.api.find(ADMIN, ResourceType.IMAGE_MIRROR, null, "prod").isPresent(), "the owner waits");

    refuse[0] = false;
    f.loop.runFor(Duration.ofMinutes(30));
    ObjectNode orphan = f.get(ResourceType.SECRET, "team-a", "kuik-inject-imagemirror-prod");
    assertTrue(Meta.ownerReferences(orphan).isEmpty());
    assertFalse(f.api.find(ADMIN, ResourceType.IMAGE_MIRROR, null, "prod").isPresent());
  }

  @Test
  void foregroundDeletionKeepsTheOwnerWithItsFinalizerUntilItsBlockingDependentsAreGone() {
    heldBlockingSecret("team-a", true);

    ObjectNode marked =
        f.api.delete(ADMIN, ResourceType.IMAGE_MIRROR, null, "prod", DeleteOptions.foreground());
    f.loop.runFor(Duration.ofSeconds(30));

    assertEquals(List.of("foregroundDeletion"), Meta.finalizers(marked));
    assertTrue(Meta.deleting(marked));
    ObjectNode dependent = f.get(ResourceType.SECRET, "team-a", "kuik-inject-imagemirror-prod");
    assertTrue(Meta.deleting(dependent), "the collector deleted the dependent");
    ObjectNode owner = theMirror().orElseThrow(() -> new AssertionError("the owner went first"));
    assertEquals(List.of("foregroundDeletion"), Meta.finalizers(owner));

    release("team-a");
    f.loop.runFor(Duration.ofSeconds(5));

    assertFalse(exists("team-a"));
    assertTrue(theMirror().isEmpty(), "the owner goes once its blocking dependent is gone");
  }

  @Test
  void foregroundDeletionDoesNotWaitForDependentsThatDoNotBlockButCollectsThem() {
    heldBlockingSecret("team-a", false);
    ownedSecret("team-b", mirror);

    f.api.delete(ADMIN, ResourceType.IMAGE_MIRROR, null, "prod", DeleteOptions.foreground());
    f.loop.runFor(Duration.ofSeconds(5));

    assertTrue(theMirror().isEmpty(), "no dependent sets blockOwnerDeletion");
    assertFalse(exists("team-b"));
    assertTrue(
        Meta.deleting(f.get(ResourceType.SECRET, "team-a", "kuik-inject-imagemirror-prod")),
        "still deleted, held only by its own finalizer");
  }

  @Test
  void aDependentWithAnotherLiveOwnerLosesTheWaitingReferenceAndStays() {
    ObjectNode other =
        f.api.create(
            ADMIN,
            Json.yaml(
                "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageMirror\nmetadata: {name: other}\nspec: {destination: {path: registry.example.com/m/}}"));
    ObjectNode s = Fixture.opaque("team-a", "kuik-inject-imagemirror-prod", "k", "v");
    s.withObjectProperty("metadata")
        .putArray("ownerReferences")
        .add(Fixture.ownerRef(mirror).put("blockOwnerDeletion", true))
        .add(Fixture.ownerRef(other));
    f.api.create(ADMIN, s);

    f.api.delete(ADMIN, ResourceType.IMAGE_MIRROR, null, "prod", DeleteOptions.foreground());
    f.loop.runFor(Duration.ofSeconds(5));

    ObjectNode kept = f.get(ResourceType.SECRET, "team-a", "kuik-inject-imagemirror-prod");
    assertEquals(1, Meta.ownerReferences(kept).size());
    assertEquals(Meta.uid(other), Meta.ownerReferences(kept).get(0).path("uid").asString());
    assertTrue(theMirror().isEmpty());
  }

  @Test
  void deletingAgainWithAnotherPolicyOnlySwapsThePropagationFinalizer() {
    heldBlockingSecret("team-a", true);
    f.api.delete(ADMIN, ResourceType.IMAGE_MIRROR, null, "prod", DeleteOptions.foreground());

    ObjectNode again =
        f.api.delete(ADMIN, ResourceType.IMAGE_MIRROR, null, "prod", DeleteOptions.orphan());

    assertEquals(List.of("orphan"), Meta.finalizers(again));
    f.loop.runFor(Duration.ofSeconds(10));
    assertTrue(theMirror().isEmpty(), "orphaning does not wait for the dependent to go");
    ObjectNode orphan = f.get(ResourceType.SECRET, "team-a", "kuik-inject-imagemirror-prod");
    assertTrue(Meta.ownerReferences(orphan).isEmpty());
  }
}
