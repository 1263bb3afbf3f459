package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.model.Validated;
import io.kuik.model.Validated.Invalid;
import io.kuik.syncer.Input;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The one rule from an informer notification to a core input (docs/architecture.md), fed as
 * fabric8's informer feeds it: the cache updated first, then the notification.
 */
class IntakeTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");

  private final InformerStores stores = new InformerStores("kuik-system");
  private final Intake intake = new Intake(stores);
  private Instant now = T0;

  // ---- fabric8's informer, by hand ------------------------------------------------------------

  private Optional<Input> pod(Pod after) {
    Pod before = stores.podStore().put(stores.podStore().getKey(after), after);
    return intake.input(new Notification.PodNotified(before, after), now);
  }

  private Optional<Input> podDeleted(String namespace, String name) {
    Pod before = stores.podStore().remove(namespace + "/" + name);
    return intake.input(new Notification.PodNotified(before, null), now);
  }

  private Optional<Input> namespace(Namespace after) {
    Namespace before = stores.namespaceStore().put(after.getMetadata().getName(), after);
    return intake.input(new Notification.NamespaceNotified(before, after), now);
  }

  private Optional<Input> namespaceDeleted(String name) {
    Namespace before = stores.namespaceStore().remove(name);
    return intake.input(new Notification.NamespaceNotified(before, null), now);
  }

  private Optional<Input> routing(Validated after) {
    return intake.input(new Notification.RoutingNotified(ACME, after), now);
  }

  private Optional<Input> source(String name) {
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withNamespace("kuik-system")
            .withName(name)
            .endMetadata()
            .build();
    stores.sourceStore().put(stores.sourceStore().getKey(secret), secret);
    return intake.input(new Notification.SourceNotified(name), now);
  }

  static Pod pod(String name, String phase, String image, String annotation) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("team-a")
        .withName(name)
        .withResourceVersion("1")
        .addToLabels("kuik.enix.io/images-rewritten", "true")
        .addToAnnotations("kuik.enix.io/rewritten-by", "{\"app\":\"ImageAlternative/acme\"}")
        .addToAnnotations("note", annotation)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("app")
        .withImage(image)
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPhase(phase)
        .withPodIP("10.0.0.1")
        .endStatus()
        .build();
  }

  static Namespace namespace(String name, String tier, String annotation) {
    return new NamespaceBuilder()
        .withNewMetadata()
        .withName(name)
        .withResourceVersion("1")
        .addToLabels("tier", tier)
        .addToAnnotations("note", annotation)
        .endMetadata()
        .build();
  }

  static Validated invalid(String problem, long generation) {
    return new Invalid(ACME, List.of(new io.kuik.model.Problem("spec", problem)), generation);
  }

  // ---- the rule -------------------------------------------------------------------------------

  @Test
  void beforeTheStartNothingReachesTheCoreButTheCachesFill() {
    assertEquals(Optional.empty(), namespace(namespace("team-a", "prod", "")));
    assertEquals(Optional.empty(), pod(pod("web", "Running", "quay.io/acme/app:1", "")));
    assertEquals(Optional.empty(), routing(invalid("x", 1)));
    assertEquals(Optional.empty(), source("acme-pull"));

    assertEquals(1, stores.pods("team-a").size());
    assertEquals(List.of(ACME), stores.routingResources().stream().map(Validated::id).toList());
    assertEquals(true, stores.clusterSecret("acme-pull").isPresent());
    assertEquals(new Input.Started(), intake.started(now));
  }

  @Test
  void aPodIsAnnouncedOnlyWhenItsRecordChanges() {
    intake.started(now);
    Pod web = pod("web", "Pending", "quay.io/acme/app:1", "");
    assertEquals(Input.PodChanged.class, pod(web).orElseThrow().getClass());

    assertEquals(Optional.empty(), pod(pod("web", "Pending", "quay.io/acme/app:1", "relabelled")));
    Input running = pod(pod("web", "Running", "quay.io/acme/app:1", "")).orElseThrow();
    assertEquals("Pending", ((Input.PodChanged) running).before().phase());
    assertEquals("Running", ((Input.PodChanged) running).after().phase());
    Input gone = podDeleted("team-a", "web").orElseThrow();
    assertEquals(null, ((Input.PodChanged) gone).after());
  }

  @Test
  void theStartsListArrivingLateIsDroppedButAnythingElseGoesThrough() {
    Pod web = pod("web", "Running", "quay.io/acme/app:1", "");
    stores.podStore().put("team-a/web", web); // listed before the start, notified after it
    stores.namespaceStore().put("team-a", namespace("team-a", "prod", ""));
    intake.started(now);

    assertEquals(
        Optional.empty(), intake.input(new Notification.PodNotified(null, web), now), "late add");
    assertEquals(
        Optional.empty(),
        intake.input(
            new Notification.NamespaceNotified(null, namespace("team-a", "prod", "")), now));
    assertEquals(new Input.NamespaceDeleted("team-a"), namespaceDeleted("team-a").orElseThrow());
    assertEquals(
        new Input.NamespaceChanged("team-a"),
        namespace(namespace("team-a", "prod", "")).orElseThrow(),
        "created again, as it was: a new namespace");
  }

  @Test
  void theStartsListIsLookedForOneMinuteOnly() {
    Pod web1 = pod("web-1", "Running", "quay.io/acme/app:1", "");
    Pod web2 = pod("web-2", "Running", "quay.io/acme/app:1", "");
    stores.podStore().put("team-a/web-1", web1);
    stores.podStore().put("team-a/web-2", web2);
    stores.namespaceStore().put("team-a", namespace("team-a", "prod", ""));
    intake.started(now);

    assertEquals(
        Optional.empty(),
        intake.input(new Notification.PodNotified(null, web1), now.plusSeconds(59)),
        "within the minute: the start's late add");
    assertEquals(
        Input.PodChanged.class,
        intake
            .input(
                new Notification.PodNotified(null, web2),
                now.plus(Intake.SEEN_AT_START_KEPT).plusMillis(1))
            .orElseThrow()
            .getClass(),
        "after it: an add like any other");
  }

  @Test
  void aNamespaceIsAnnouncedOnlyWhenItsLabelsOrItsDeletionChange() {
    intake.started(now);
    assertEquals(
        new Input.NamespaceChanged("team-a"), namespace(namespace("team-a", "prod", "")).get());
    assertEquals(Optional.empty(), namespace(namespace("team-a", "prod", "owner=alice")));
    assertEquals(
        new Input.NamespaceChanged("team-a"), namespace(namespace("team-a", "dev", "")).get());
    Namespace terminating = namespace("team-a", "dev", "");
    terminating.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
    assertEquals(new Input.NamespaceChanged("team-a"), namespace(terminating).get());
  }

  @Test
  void aRoutingResourceIsAnnouncedOnlyWhenItsValidatedFormChanges() {
    intake.started(now);
    assertEquals(new Input.ResourceChanged(ACME), routing(invalid("x", 1)).orElseThrow());
    assertEquals(Optional.empty(), routing(invalid("x", 1)), "its status written, say");
    assertEquals(new Input.ResourceChanged(ACME), routing(invalid("y", 2)).orElseThrow());
    assertEquals(invalid("y", 2), stores.routingResource(ACME).orElseThrow());

    assertEquals(new Input.ResourceDeleted(ACME), routing(null).orElseThrow());
    assertEquals(Optional.empty(), stores.routingResource(ACME));
  }

  @Test
  void aSourceSecretIsAlwaysAnnounced() {
    intake.started(now);
    assertEquals(new Input.SourceChanged("acme-pull"), source("acme-pull").orElseThrow());
    assertEquals(new Input.SourceChanged("acme-pull"), source("acme-pull").orElseThrow());
    now = now.plus(Duration.ofHours(1));
    assertEquals(new Input.SourceChanged("acme-pull"), source("acme-pull").orElseThrow());
  }

  @Test
  void aNotificationOfNeitherABeforeNorAnAfterIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Notification.PodNotified(null, null));
    assertThrows(
        IllegalArgumentException.class, () -> new Notification.NamespaceNotified(null, null));
  }
}
