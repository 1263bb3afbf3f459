package io.kuik.sim.world.kubelet;

import static io.kuik.sim.ManifestBuilders.auths;
import static io.kuik.sim.ManifestBuilders.events;
import static io.kuik.sim.ManifestBuilders.pod;
import static io.kuik.sim.ManifestBuilders.pullSecret;
import static io.kuik.sim.ManifestBuilders.waitingReason;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.Cluster;
import io.kuik.sim.ManifestBuilders;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.Target;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.registry.Availability;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class KubeletTest {

  private static final String PRIVATE_IMAGE = "quay.io/acme/foo:1.0";
  private static final String PUBLIC_IMAGE = "quay.io/public/tool:2";

  private final Cluster cluster = Cluster.create(3);
  private final Kubelet kubelet = cluster.kubelet();

  @BeforeEach
  void world() {
    cluster.registries().push(PRIVATE_IMAGE);
    cluster.registries().push(PUBLIC_IMAGE);
    cluster.registries().registry("quay.io").requireCredential("acme", "alice", "s3cret");
    cluster.registries().registry("quay.io").requireCredential("acme", "bob", "hunter2");
    admin(ManifestBuilders.namespace("team-a"));
    cluster.loop().runFor(Duration.ofSeconds(1));
  }

  private ObjectNode admin(ObjectNode object) {
    return cluster.api().create(Cluster.ADMIN, object);
  }

  private void run(Duration duration) {
    cluster.loop().runFor(duration);
  }

  private List<PullAttempt> attempts() {
    return kubelet.pullAttempts("team-a", "web");
  }

  private static List<Long> intervals(List<PullAttempt> attempts) {
    List<Long> out = new ArrayList<>();
    for (int i = 1; i < attempts.size(); i++) {
      out.add(Duration.between(attempts.get(i - 1).at(), attempts.get(i).at()).toSeconds());
    }
    return out;
  }

  @Test
  void
      aPullThatNeedsACredentialFailsWithoutTheSecretAndRetriesAfterABackoffDoublingFrom10sTo5Min() {
    admin(pod("team-a", "web", PRIVATE_IMAGE, "acme-pull"));

    run(Duration.ofMinutes(16));

    assertEquals(List.of(10L, 20L, 40L, 80L, 160L, 300L, 300L), intervals(attempts()));
    assertTrue(
        attempts().stream()
            .allMatch(a -> a.anonymous() && a.outcome() == Availability.UNAUTHORIZED),
        attempts().toString());
    assertEquals("Pending", kubelet.phase("team-a", "web"));
  }

  @Test
  void theContainerWaitsWithErrImagePullThenImagePullBackOffAndAFailedEventSaysWhy() {
    admin(pod("team-a", "web", PRIVATE_IMAGE));
    run(Duration.ofSeconds(1));
    assertEquals("ErrImagePull", waitingReason(cluster, "team-a", "web"));

    run(Duration.ofSeconds(15)); // the second pull, at +10 s, fails too
    assertEquals("ErrImagePull", waitingReason(cluster, "team-a", "web"));
    run(Duration.ofSeconds(10)); // the sync at +20 s is inside the 20 s back-off
    assertEquals("ImagePullBackOff", waitingReason(cluster, "team-a", "web"));

    List<ObjectNode> failed = events(cluster, "team-a", "Failed");
    assertEquals(
        "Failed to pull image \"quay.io/acme/foo:1.0\": rpc error: code = Unknown desc = failed"
            + " to pull and unpack image \"quay.io/acme/foo:1.0\": failed to resolve reference"
            + " \"quay.io/acme/foo:1.0\": unexpected status from HEAD request to"
            + " https://quay.io/v2/acme/foo/manifests/1.0: 401 Unauthorized",
        failed.get(0).path("message").asString());
    assertEquals("Warning", failed.get(0).path("type").asString());
    assertEquals("web", failed.get(0).path("involvedObject").path("name").asString());
    assertEquals(1, events(cluster, "team-a", "BackOff").size());
  }

  @Test
  void theSecretIsReadAgainOnEveryAttemptSoOneCreatedBetweenAttemptsMakesTheNextPullSucceed() {
    admin(pod("team-a", "web", PRIVATE_IMAGE, "acme-pull"));
    run(Duration.ofSeconds(15)); // attempts at +0 s and +10 s, both anonymous
    admin(pullSecret("team-a", "acme-pull", auths("quay.io/acme", "alice", "s3cret")));

    run(Duration.ofMinutes(1));

    assertEquals(3, attempts().size(), attempts().toString());
    PullAttempt last = attempts().get(2);
    assertEquals("alice", last.username());
    assertEquals(Availability.AVAILABLE, last.outcome());
    assertEquals(List.of(10L, 20L), intervals(attempts()));
    long reads =
        cluster.trace().requests().stream()
            .filter(
                r ->
                    r.kind() == RequestKind.GET
                        && r.target()
                            .equals(Target.object(Resource.SECRETS, "team-a", "acme-pull")))
            .count();
    assertEquals(3, reads, "one GET of the pull Secret per attempt");
    assertEquals("Running", kubelet.phase("team-a", "web"));
    ObjectNode stored = cluster.api().get(Cluster.ADMIN, ResourceType.POD, "team-a", "web");
    assertEquals("Running", stored.path("status").path("phase").asString());
    assertTrue(stored.path("status").path("containerStatuses").path(0).path("ready").asBoolean());
  }

  @Test
  void aMissingPullSecretGivesFailedToRetrieveImagePullSecretAndThePullGoesOnAnonymously() {
    admin(pod("team-a", "web", PUBLIC_IMAGE, "gone", "also-gone"));

    run(Duration.ofSeconds(5));

    List<ObjectNode> warnings = events(cluster, "team-a", "FailedToRetrieveImagePullSecret");
    assertEquals(1, warnings.size());
    assertEquals("Warning", warnings.get(0).path("type").asString());
    assertEquals(
        "Unable to retrieve some image pull secrets (gone, also-gone); attempting to pull the"
            + " image may not succeed.",
        warnings.get(0).path("message").asString());
    assertEquals(1, attempts().size());
    assertNull(attempts().get(0).username());
    assertEquals(Availability.AVAILABLE, attempts().get(0).outcome());
    assertEquals("Running", kubelet.phase("team-a", "web"));
  }

  @Test
  void theMostSpecificCredentialOfTheKeyringIsTriedFirst() {
    admin(
        pullSecret(
            "team-a",
            "pull",
            auths("quay.io", "bob", "wrong-for-bob", "quay.io/acme", "alice", "s3cret")));
    admin(pod("team-a", "web", PRIVATE_IMAGE, "pull"));

    run(Duration.ofSeconds(5));

    assertEquals(1, attempts().size(), attempts().toString());
    assertEquals("alice", attempts().get(0).username());
    assertEquals(Availability.AVAILABLE, attempts().get(0).outcome());
  }

  @Test
  void theCredentialsThatMatchAreTriedInTurnAcrossSecrets() {
    admin(pullSecret("team-a", "first", auths("quay.io/acme", "alice", "stale")));
    admin(pullSecret("team-a", "second", auths("quay.io", "bob", "hunter2")));
    admin(pod("team-a", "web", PRIVATE_IMAGE, "second", "first"));

    run(Duration.ofSeconds(5));

    assertEquals(2, attempts().size(), attempts().toString());
    assertEquals("alice", attempts().get(0).username());
    assertEquals(Availability.UNAUTHORIZED, attempts().get(0).outcome());
    assertEquals("bob", attempts().get(1).username());
    assertEquals(Availability.AVAILABLE, attempts().get(1).outcome());
    assertEquals(attempts().get(0).at(), attempts().get(1).at(), "within one pull");
  }

  /** kuberuntime_image.go PullImage: anonymous only when no key matched at all. */
  @Test
  void aRefusedCredentialIsNotFollowedByAnAnonymousPullEvenOfAPublicImage() {
    // quay.io/public matches the key quay.io/pub by string prefix; quay.io knows no user "stale".
    admin(pullSecret("team-a", "pull", auths("quay.io/pub", "stale", "nope")));
    admin(pod("team-a", "web", PUBLIC_IMAGE, "pull"));

    run(Duration.ofSeconds(5));

    assertEquals(1, attempts().size(), attempts().toString());
    assertEquals("stale", attempts().get(0).username());
    assertEquals(Availability.UNAUTHORIZED, attempts().get(0).outcome());
    assertEquals("ErrImagePull", waitingReason(cluster, "team-a", "web"));
  }

  /** kuberuntime_image.go PullImage: every error kept, utilerrors.NewAggregate's "[a, b]". */
  @Test
  void everyRefusalOfOnePullIsReportedTogether() {
    admin(pullSecret("team-a", "pull", auths("quay.io", "x", "1", "quay.io/acme", "y", "2")));
    admin(pod("team-a", "web", PRIVATE_IMAGE, "pull"));

    run(Duration.ofSeconds(5));

    String refused =
        "rpc error: code = Unknown desc = failed to pull and unpack image"
            + " \"quay.io/acme/foo:1.0\": failed to resolve reference \"quay.io/acme/foo:1.0\":"
            + " unexpected status from HEAD request to"
            + " https://quay.io/v2/acme/foo/manifests/1.0: 401 Unauthorized";
    assertEquals(
        "Failed to pull image \"quay.io/acme/foo:1.0\": [" + refused + ", " + refused + "]",
        events(cluster, "team-a", "Failed").get(0).path("message").asString());
    assertEquals(List.of("y", "x"), attempts().stream().map(PullAttempt::username).toList());
  }

  /** An entry without credential still matches: the runtime pulls with no credential for it. */
  @Test
  void anEntryWithoutCredentialIsTriedAsAnAnonymousPull() {
    admin(ManifestBuilders.dockerConfigSecret("team-a", "pull", "{\"auths\":{\"quay.io\":{}}}"));
    admin(pod("team-a", "web", PUBLIC_IMAGE, "pull"));

    run(Duration.ofSeconds(5));

    assertEquals(1, attempts().size(), attempts().toString());
    assertNull(attempts().get(0).username());
    assertEquals("Running", kubelet.phase("team-a", "web"));
  }

  @Test
  void aRegistryDownIsUnreachableThenOnceUpTheNextAttemptSucceeds() {
    cluster.registries().registry("quay.io").down();
    admin(pod("team-a", "web", PUBLIC_IMAGE));
    run(Duration.ofSeconds(5));
    assertEquals(Availability.UNREACHABLE, attempts().get(0).outcome());
    assertTrue(
        events(cluster, "team-a", "Failed")
            .get(0)
            .path("message")
            .asString()
            .endsWith("dial tcp quay.io: connect: connection refused"));

    cluster.registries().registry("quay.io").up();
    run(Duration.ofSeconds(10));

    assertEquals(2, attempts().size());
    assertEquals(Availability.AVAILABLE, attempts().get(1).outcome());
    assertEquals(List.of(10L), intervals(attempts()));
    assertEquals("Running", kubelet.phase("team-a", "web"));
  }

  @Test
  void aDeletedPodStopsItsRetries() {
    admin(pod("team-a", "web", PRIVATE_IMAGE));
    run(Duration.ofSeconds(5));
    cluster.api().delete(Cluster.ADMIN, ResourceType.POD, "team-a", "web");

    run(Duration.ofMinutes(10));

    assertEquals(1, attempts().size());
    assertNull(kubelet.phase("team-a", "web"));
    assertTrue(cluster.loop().pending().isEmpty(), cluster.loop().pending().toString());
  }

  @Test
  void aRecreatedPodStartsAFreshBackoff() {
    admin(pod("team-a", "web", PRIVATE_IMAGE));
    run(Duration.ofSeconds(15)); // two failures: the old pod's back-off is now 20 s
    cluster.api().delete(Cluster.ADMIN, ResourceType.POD, "team-a", "web");
    run(Duration.ofSeconds(1));
    admin(pod("team-a", "web", PRIVATE_IMAGE));

    run(Duration.ofSeconds(15));

    List<PullAttempt> fresh = attempts().subList(2, attempts().size());
    assertEquals(List.of(10L), intervals(fresh), "the back-off key is the pod's UID and image");
  }

  @Test
  void initContainersPullOneAtATimeBeforeTheContainers() {
    ObjectNode pod = pod("team-a", "web", PUBLIC_IMAGE);
    ((ObjectNode) pod.get("spec"))
        .putArray("initContainers")
        .add(Json.yaml("{name: migrate, image: quay.io/public/migrate:1}"))
        .add(Json.yaml("{name: seed, image: quay.io/public/seed:1}"));
    cluster.registries().push("quay.io/public/seed:1");
    admin(pod);

    run(Duration.ofSeconds(5));
    assertEquals(
        List.of("quay.io/public/migrate:1"),
        attempts().stream().map(PullAttempt::image).toList(),
        "nothing after an init container that cannot start");
    assertEquals(Availability.NOT_FOUND, attempts().get(0).outcome());
    assertEquals("PodInitializing", kubelet.waitingReason("team-a", "web", "app"));

    cluster.registries().push("quay.io/public/migrate:1");
    run(Duration.ofSeconds(10));

    assertEquals(
        List.of(
            "quay.io/public/migrate:1",
            "quay.io/public/migrate:1",
            "quay.io/public/seed:1",
            PUBLIC_IMAGE),
        attempts().stream().map(PullAttempt::image).toList());
    ObjectNode status =
        (ObjectNode)
            cluster.api().get(Cluster.ADMIN, ResourceType.POD, "team-a", "web").get("status");
    assertEquals("Running", status.path("phase").asString());
    assertEquals(
        "Completed",
        status
            .path("initContainerStatuses")
            .path(1)
            .path("state")
            .path("terminated")
            .path("reason")
            .asString());
  }

  @Test
  void ifNotPresentSkipsAnImageTheNodeHasAndAlwaysPullsItAgain() {
    admin(pod("team-a", "one", PUBLIC_IMAGE));
    run(Duration.ofSeconds(5));
    admin(pod("team-a", "two", PUBLIC_IMAGE));
    ObjectNode always = pod("team-a", "three", PUBLIC_IMAGE);
    ((ObjectNode) always.path("spec").path("containers").get(0)).put("imagePullPolicy", "Always");
    admin(always);
    run(Duration.ofSeconds(5));

    assertEquals(1, kubelet.pullAttempts("team-a", "one").size());
    assertEquals(0, kubelet.pullAttempts("team-a", "two").size());
    assertEquals(1, kubelet.pullAttempts("team-a", "three").size());
    assertEquals("Running", kubelet.phase("team-a", "two"));
  }

  @Test
  void theLatestTagIsPulledAtEveryStartByDefault() {
    cluster.registries().push("quay.io/public/tool:latest");
    kubelet.preload("quay.io/public/tool");
    admin(pod("team-a", "web", "quay.io/public/tool"));

    run(Duration.ofSeconds(5));

    assertEquals(1, attempts().size());
  }

  @Test
  void neverWaitsWithErrImageNeverPullUntilTheImageIsOnTheNode() {
    ObjectNode never = pod("team-a", "web", PUBLIC_IMAGE);
    ((ObjectNode) never.path("spec").path("containers").get(0)).put("imagePullPolicy", "Never");
    admin(never);
    run(Duration.ofSeconds(5));

    assertTrue(attempts().isEmpty());
    assertEquals("ErrImageNeverPull", waitingReason(cluster, "team-a", "web"));
    assertEquals(
        "Container image \"quay.io/public/tool:2\" is not present with pull policy of Never",
        events(cluster, "team-a", "ErrImageNeverPull").get(0).path("message").asString());

    kubelet.preload(PUBLIC_IMAGE);
    run(Duration.ofSeconds(10));
    assertEquals("Running", kubelet.phase("team-a", "web"));
  }

  @Test
  void aPullSecretTheKubeletCannotDecodeFailsThePullWithoutAskingTheRegistry() {
    // Valid JSON, so the API server takes it; "bm9wYXNz" is base64 of "nopass", which has no colon.
    admin(
        ManifestBuilders.dockerConfigSecret(
            "team-a", "broken", "{\"auths\":{\"quay.io\":{\"auth\":\"bm9wYXNz\"}}}"));
    admin(pod("team-a", "web", PUBLIC_IMAGE, "broken"));

    run(Duration.ofSeconds(5));

    assertTrue(attempts().isEmpty(), attempts().toString());
    String message = events(cluster, "team-a", "Failed").get(0).path("message").asString();
    assertTrue(message.contains("image pull Secret team-a/broken"), message);
    assertEquals("ErrImagePull", waitingReason(cluster, "team-a", "web"));
  }

  @Test
  void aFirstPullDelayPostponesTheFirstAttempt() {
    kubelet.setFirstPullDelay(Duration.ofSeconds(3));
    Instant created = cluster.loop().now();
    admin(pod("team-a", "web", PUBLIC_IMAGE));

    run(Duration.ofSeconds(2));
    assertTrue(attempts().isEmpty());
    run(Duration.ofSeconds(2));

    assertEquals(1, attempts().size());
    assertFalse(attempts().get(0).at().isBefore(created.plusSeconds(3)));
  }
}
