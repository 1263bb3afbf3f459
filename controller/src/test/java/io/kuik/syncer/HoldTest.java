package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.T0;
import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.pod;
import static io.kuik.syncer.SyncerHarness.repository;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.kuik.kube.syncer.Records;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Hold#keysToHold}, the decision of where a Secret lands and what it keeps, alone. */
class HoldTest {

  /** The documented grace (15 minutes), the test's own. */
  static final Duration GRACE = Duration.ofMinutes(15);

  static final String FOO = "quay.io/acme/foo";
  static final String BAR = "ghcr.io/acme/bar";
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final ResourceId OTHER = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "other");
  static final Targeting SERVES_BY_DEFAULT = new Targeting("kuik-system", true);

  private static RoutingResource acme(RewritePolicy policy) {
    return alternative(
        "acme",
        policy,
        selector("tier", "prod"),
        repository(0, FOO, "acme-pull"),
        repository(1, BAR, "acme-pull"),
        repository(2, "docker.io/acme/plain", null));
  }

  private static Map<String, String> labels(String spec) {
    Map<String, String> labels = new TreeMap<>();
    if (!spec.isBlank()) {
      Arrays.stream(spec.split(";"))
          .map(kv -> kv.split("=", 2))
          .forEach(kv -> labels.put(kv[0], kv[1]));
    }
    return labels;
  }

  private static Hold hold(
      RoutingResource resource,
      String labels,
      Targeting targeting,
      List<Pod> pods,
      GraceClocks clocks,
      Instant now) {
    return Hold.keysToHold(
        resource,
        "team-a",
        labels(labels),
        pods.stream().map(Records::pod).toList(),
        targeting,
        clocks,
        GRACE,
        now);
  }

  @ParameterizedTest(name = "Always, namespace {0}, namespacesByDefault {1}: holds {2}")
  @CsvSource({
    "tier=prod, true, true",
    "tier=dev, true, false",
    "'', true, false",
    "tier=prod;kuik.enix.io/pull-secrets-override=false, true, false",
    "tier=dev;kuik.enix.io/pull-secrets-override=true, true, false",
    "tier=prod;kuik.enix.io/pull-secrets-override=true, false, true",
    "tier=prod;kuik.enix.io/pull-secrets-override=maybe, false, false",
    "tier=prod;kuik.enix.io/pull-secrets-instance=kuik-other, true, false",
    "tier=prod;kuik.enix.io/pull-secrets-instance=kuik-system, false, true",
    "tier=prod;kuik.enix.io/pull-secrets-override=true;kuik.enix.io/pull-secrets-instance=kuik-other, true, true",
    "tier=prod, false, false",
  })
  void alwaysHoldsEveryInjectingEntryWhereTheSelectorSelectsAndTheInstanceServes(
      String namespaceLabels, boolean namespacesByDefault, boolean holds) {
    Hold hold =
        hold(
            acme(RewritePolicy.ALWAYS),
            namespaceLabels,
            new Targeting("kuik-system", namespacesByDefault),
            List.of(),
            GraceClocks.NONE,
            T0);
    assertEquals(holds ? Set.of(BAR, FOO) : Set.of(), hold.keys());
    assertEquals(GraceClocks.NONE, hold.clocks());
    assertEquals(Optional.empty(), hold.nextExpiry());
  }

  @Test
  void alwaysWithoutANamespaceSelectorSelectsEveryNamespace() {
    RoutingResource everywhere =
        alternative("acme", RewritePolicy.ALWAYS, null, repository(0, FOO, "acme-pull"));
    assertEquals(
        Set.of(FOO),
        hold(everywhere, "", SERVES_BY_DEFAULT, List.of(), GraceClocks.NONE, T0).keys());
    assertEquals(
        Set.of(FOO),
        hold(everywhere, "any=thing", SERVES_BY_DEFAULT, List.of(), GraceClocks.NONE, T0).keys());
  }

  @Test
  void alwaysIsNotNarrowedByPodsAndDropsAnOldGraceClock() {
    GraceClocks left = GraceClocks.NONE.sawNeeded(FOO, T0);
    Hold hold =
        hold(
            acme(RewritePolicy.ALWAYS),
            "tier=prod",
            SERVES_BY_DEFAULT,
            List.of(pod("team-a", "web", OTHER, "Running", "nginx:1.27")),
            left,
            T0.plusSeconds(1));
    assertEquals(Set.of(BAR, FOO), hold.keys());
    assertEquals(GraceClocks.NONE, hold.clocks(), "grace belongs to OnFailure needs only");
  }

  @ParameterizedTest(name = "OnFailure, a pod {0} rewritten by {1} running {2}: holds {3}")
  @CsvSource({
    "Running, acme, quay.io/acme/foo:1.0, quay.io/acme/foo",
    "Pending, acme, quay.io/acme/foo:1.0, quay.io/acme/foo",
    "Unknown, acme, quay.io/acme/foo:1.0, quay.io/acme/foo",
    "'', acme, quay.io/acme/foo:1.0, quay.io/acme/foo",
    "Succeeded, acme, quay.io/acme/foo:1.0, ''",
    "Failed, acme, quay.io/acme/foo:1.0, ''",
    "Running, other, quay.io/acme/foo:1.0, ''",
    "Running, '', quay.io/acme/foo:1.0, ''",
    "Running, acme, ghcr.io/acme/bar@sha256:"
        + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, ghcr.io/acme/bar",
    "Running, acme, docker.io/library/nginx:1.27, ''",
    "Running, acme, docker.io/acme/plain:1, ''",
    "Running, acme, not//an image, ''",
  })
  void onFailureHoldsTheEntriesServingTheLivePodsItRewrote(
      String phase, String rewriter, String image, String holds) {
    ResourceId by = rewriter.isEmpty() ? null : ACME.name().equals(rewriter) ? ACME : OTHER;
    Pod pod = pod("team-a", "web", by, phase.isEmpty() ? null : phase, image);
    Hold hold =
        hold(
            acme(RewritePolicy.ON_FAILURE),
            "tier=prod",
            SERVES_BY_DEFAULT,
            List.of(pod),
            GraceClocks.NONE,
            T0);
    assertEquals(holds.isEmpty() ? Set.of() : Set.of(holds), hold.keys());
  }

  /**
   * The claim rule (docs/behaviour.md#which-rewrites-count): a live pod's claim counts only where
   * the webhook could have made the rewrite. The resource is acme (OnFailure, namespaceSelector
   * tier=prod, entries quay.io/acme/foo and ghcr.io/acme/bar injecting, docker.io/acme/plain not);
   * the pod claims acme for its one container.
   */
  @ParameterizedTest(
      name = "namespace {0}, served by default {1}, image {2}: holds {3}, not recognized {4}")
  @CsvSource({
    // The webhook's own rule: selected, served, under an entry.
    "tier=prod, true, quay.io/acme/foo:1.0, quay.io/acme/foo, ''",
    "tier=prod;team=o, true, ghcr.io/acme/bar:2, ghcr.io/acme/bar, ''",
    // Outside the namespaceSelector: a forged claim, whatever the image.
    "tier=dev, true, quay.io/acme/foo:1.0, '', NAMESPACE_NOT_SELECTED",
    "'', true, quay.io/acme/foo:1.0, '', NAMESPACE_NOT_SELECTED",
    "tier=dev, true, docker.io/evil/x:1, '', NAMESPACE_NOT_SELECTED",
    // An image under none of the entries, in the selected namespace.
    "tier=prod, true, docker.io/evil/x:1, '', IMAGE_NOT_COVERED",
    "tier=prod, true, quay.io/acme/foo-bar:1, '', IMAGE_NOT_COVERED",
    "tier=prod, true, not//an image, '', IMAGE_NOT_COVERED",
    // Under an entry that does not inject: recognized, but nothing to hold.
    "tier=prod, true, docker.io/acme/plain:1, '', ''",
    // A namespace this instance does not serve: not this instance's to judge.
    "tier=prod;kuik.enix.io/pull-secrets-instance=kuik-other, true, quay.io/acme/foo:1.0, '', ''",
    "tier=dev;kuik.enix.io/pull-secrets-override=false, true, docker.io/evil/x:1, '', ''",
    "tier=prod, false, quay.io/acme/foo:1.0, '', ''",
    "tier=prod;kuik.enix.io/pull-secrets-instance=kuik-system, false, quay.io/acme/foo:1.0,"
        + " quay.io/acme/foo, ''",
  })
  void onFailureCountsAClaimOnlyWhereTheWebhookCouldHaveRewritten(
      String namespaceLabels,
      boolean namespacesByDefault,
      String image,
      String holds,
      String notRecognized) {
    Hold hold =
        hold(
            acme(RewritePolicy.ON_FAILURE),
            namespaceLabels,
            new Targeting("kuik-system", namespacesByDefault),
            List.of(pod("team-a", "web", ACME, "Running", image)),
            GraceClocks.NONE,
            T0);
    assertEquals(holds.isEmpty() ? Set.of() : Set.of(holds), hold.keys());
    assertEquals(
        notRecognized.isEmpty() ? List.of() : List.of(Claims.Why.valueOf(notRecognized)),
        hold.notRecognized().stream().map(Claims.NotRecognized::why).toList());
  }

  @Test
  void aNamespaceThatLeavesTheSelectorKeepsWhatItsPodsUsedForTheGraceOnly() {
    RoutingResource resource = acme(RewritePolicy.ON_FAILURE);
    List<Pod> live = List.of(pod("team-a", "web", ACME, "Running", "quay.io/acme/foo:1.0"));
    Hold inScope = hold(resource, "tier=prod", SERVES_BY_DEFAULT, live, GraceClocks.NONE, T0);
    assertEquals(Set.of(FOO), inScope.keys());

    Instant relabelled = T0.plusSeconds(60);
    Hold left = hold(resource, "tier=dev", SERVES_BY_DEFAULT, live, inScope.clocks(), relabelled);
    assertEquals(Set.of(FOO), left.keys(), "the running pod keeps its credential for now");
    assertEquals(Optional.of(relabelled.plus(GRACE)), left.nextExpiry());
    assertEquals(
        List.of(Claims.Why.NAMESPACE_NOT_SELECTED),
        left.notRecognized().stream().map(Claims.NotRecognized::why).toList());

    Hold at1459 =
        hold(
            resource,
            "tier=dev",
            SERVES_BY_DEFAULT,
            live,
            left.clocks(),
            relabelled.plus(GRACE).minusSeconds(1));
    assertEquals(Set.of(FOO), at1459.keys());
    Hold at1500 =
        hold(
            resource, "tier=dev", SERVES_BY_DEFAULT, live, at1459.clocks(), relabelled.plus(GRACE));
    assertEquals(Set.of(), at1500.keys(), "released after the grace, the pod still running");
    assertEquals(Optional.empty(), at1500.nextExpiry());
  }

  @Test
  void aForgedClaimOutsideTheSelectorNeverStartsAGrace() {
    RoutingResource resource = acme(RewritePolicy.ON_FAILURE);
    List<Pod> forged = List.of(pod("team-x", "web", ACME, "Running", "quay.io/acme/foo:1.0"));
    Hold seen = hold(resource, "tier=dev", SERVES_BY_DEFAULT, forged, GraceClocks.NONE, T0);
    Hold gone =
        hold(resource, "tier=dev", SERVES_BY_DEFAULT, List.of(), seen.clocks(), T0.plusSeconds(1));
    assertEquals(Set.of(), seen.keys());
    assertEquals(Set.of(), gone.keys());
    assertEquals(GraceClocks.NONE, gone.clocks());
  }

  @Test
  void alwaysJudgesNoClaim() {
    Hold hold =
        hold(
            acme(RewritePolicy.ALWAYS),
            "tier=dev",
            SERVES_BY_DEFAULT,
            List.of(pod("team-a", "web", ACME, "Running", "docker.io/evil/x:1")),
            GraceClocks.NONE,
            T0);
    assertEquals(Set.of(), hold.keys());
    assertEquals(List.of(), hold.notRecognized(), "under Always a pod's claim plays no part");
  }

  @Test
  void onFailureIgnoresAPodBeingDeleted() {
    Pod pod = pod("team-a", "web", ACME, "Running", "quay.io/acme/foo:1.0");
    pod.getMetadata().setDeletionTimestamp(T0.toString());
    assertEquals(
        Set.of(),
        hold(
                acme(RewritePolicy.ON_FAILURE),
                "tier=prod",
                SERVES_BY_DEFAULT,
                List.of(pod),
                GraceClocks.NONE,
                T0)
            .keys());
  }

  @Test
  void onFailureHoldsOneKeyPerEntryForEveryContainerOfEveryPod() {
    List<Pod> pods =
        List.of(
            pod("team-a", "web", ACME, "Running", "quay.io/acme/foo:1.0", "quay.io/acme/foo:2.0"),
            pod("team-a", "job", ACME, "Running", "ghcr.io/acme/bar:1"));
    assertEquals(
        Set.of(BAR, FOO),
        hold(
                acme(RewritePolicy.ON_FAILURE),
                "tier=prod",
                SERVES_BY_DEFAULT,
                pods,
                GraceClocks.NONE,
                T0)
            .keys());
  }

  @Test
  void onFailureInANamespaceTheInstanceDoesNotServeHoldsNothingAndEndsEveryGrace() {
    List<Pod> pods = List.of(pod("team-a", "web", ACME, "Running", "quay.io/acme/foo:1.0"));
    GraceClocks running = GraceClocks.NONE.sawNeeded(BAR, T0);
    Hold hold =
        hold(
            acme(RewritePolicy.ON_FAILURE),
            "tier=prod;kuik.enix.io/pull-secrets-override=false",
            SERVES_BY_DEFAULT,
            pods,
            running,
            T0.plusSeconds(1));
    assertEquals(Set.of(), hold.keys());
    assertEquals(Optional.empty(), hold.nextExpiry());
  }

  @Test
  void onFailureKeepsAReleasedKeyForTheDocumentedGraceAndSaysWhenItEnds() {
    RoutingResource resource = acme(RewritePolicy.ON_FAILURE);
    List<Pod> live = List.of(pod("team-a", "web", ACME, "Running", "quay.io/acme/foo:1.0"));
    Hold needed = hold(resource, "tier=prod", SERVES_BY_DEFAULT, live, GraceClocks.NONE, T0);
    assertEquals(Set.of(FOO), needed.keys());
    assertEquals(Optional.empty(), needed.nextExpiry(), "no grace while a live pod needs it");

    Instant released = T0.plusSeconds(30);
    Hold grace =
        hold(resource, "tier=prod", SERVES_BY_DEFAULT, List.of(), needed.clocks(), released);
    assertEquals(Set.of(FOO), grace.keys());
    assertEquals(Optional.of(released.plus(GRACE)), grace.nextExpiry());

    Hold at1459 =
        hold(
            resource,
            "tier=prod",
            SERVES_BY_DEFAULT,
            List.of(),
            grace.clocks(),
            released.plus(Duration.ofMinutes(14).plusSeconds(59)));
    assertEquals(Set.of(FOO), at1459.keys());
    Hold at1500 =
        hold(
            resource,
            "tier=prod",
            SERVES_BY_DEFAULT,
            List.of(),
            at1459.clocks(),
            released.plus(GRACE));
    assertEquals(Set.of(), at1500.keys());
    assertEquals(Optional.empty(), at1500.nextExpiry());
  }

  @Test
  void onFailureDropsAtOnceAnEntryThatStoppedInjecting() {
    RoutingResource before = acme(RewritePolicy.ON_FAILURE);
    List<Pod> live = List.of(pod("team-a", "web", ACME, "Running", "quay.io/acme/foo:1.0"));
    Hold needed = hold(before, "tier=prod", SERVES_BY_DEFAULT, live, GraceClocks.NONE, T0);
    RoutingResource after =
        alternative(
            "acme",
            RewritePolicy.ON_FAILURE,
            null,
            repository(0, FOO, null),
            repository(1, BAR, "s"));
    Hold hold = hold(after, "", SERVES_BY_DEFAULT, List.of(), needed.clocks(), T0.plusSeconds(1));
    assertEquals(Set.of(), hold.keys());
  }

  @Test
  void noneHoldsNothing() {
    RoutingResource none =
        new RoutingResource(
            new ResourceId(RoutingKind.IMAGE_MIRROR, "copy"),
            "uid",
            null,
            null,
            RewritePolicy.NONE,
            List.of(
                new io.kuik.model.Entry(
                    0,
                    io.kuik.model.EntryForm.MIRROR,
                    "registry.example.com/mirror",
                    io.kuik.model.Auth.secretRef("s"))));
    List<Pod> live =
        List.of(pod("team-a", "web", none.id(), "Running", "registry.example.com/mirror/x:1"));
    assertEquals(
        Set.of(),
        hold(none, "", SERVES_BY_DEFAULT, live, GraceClocks.NONE.sawNeeded("k", T0), T0).keys());
  }
}
