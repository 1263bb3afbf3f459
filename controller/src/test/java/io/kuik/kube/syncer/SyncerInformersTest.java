package io.kuik.kube.syncer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kuik.kube.InformersDown;
import io.kuik.kube.MockCluster;
import io.kuik.syncer.Input;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The syncer's informers on fabric8's mock API server, through the intake, announce a namespace
 * only when what the core reads of it changes: its labels (the scopes select on them) or whether it
 * is being deleted.
 */
class SyncerInformersTest {

  private final MockCluster cluster = new MockCluster();
  private final KubernetesClient client = cluster.client();
  private final KubernetesClient syncerClient = new KubernetesClientBuilder().build();
  private final List<String> announced = new CopyOnWriteArrayList<>();
  private final InformerStores stores = new InformerStores("kuik-system");
  private SyncerInformers informers;

  @AfterEach
  void stop() {
    if (informers != null) {
      informers.close();
    }
    syncerClient.close();
    cluster.close();
  }

  @Test
  void announcesANamespaceWhenItsLabelsChangeAndNotForItsAnnotationsFinalizersOrStatus()
      throws Exception {
    create("kuik-system");
    create("team-a");
    informers = new SyncerInformers(syncerClient, stores, "kuik-system");
    informers.start(recording()).get(30, TimeUnit.SECONDS);
    await().atMost(Duration.ofSeconds(10)).until(() -> announced.size() >= 2); // the first list
    announced.clear();

    edit("team-a", ns -> ns.editMetadata().addToAnnotations("owner", "alice").endMetadata());
    edit("team-a", ns -> ns.editMetadata().addToLabels("kuik", "on").endMetadata());
    edit("team-a", ns -> ns.editMetadata().addToFinalizers("example.com/hold").endMetadata());
    edit("team-a", ns -> ns.withNewStatus().withPhase("Active").endStatus());
    edit("team-a", ns -> ns.editMetadata().removeFromLabels("kuik").endMetadata());

    // A barrier: the namespace informer hands events over in the order of its one watch, so once
    // the barrier's creation is announced every edit before it has been judged.
    create("barrier");
    await().atMost(Duration.ofSeconds(10)).until(() -> announced.contains("changed barrier"));
    assertEquals(List.of("changed team-a", "changed team-a", "changed barrier"), announced);
  }

  @Test
  void closedInformersCountAsStopped() throws Exception {
    create("kuik-system");
    informers = new SyncerInformers(syncerClient, stores, "kuik-system");
    informers.start(recording()).get(30, TimeUnit.SECONDS);
    assertTrue(informers.noneStopped());

    informers.close();

    assertFalse(informers.noneStopped());
  }

  @Test
  void aSourceSecretAddedOrDeletedIsAnnouncedByItsName() throws Exception {
    create("kuik-system");
    List<Notification> notifications = new CopyOnWriteArrayList<>();
    informers = new SyncerInformers(syncerClient, stores, "kuik-system");
    informers.start(notifications::add).get(30, TimeUnit.SECONDS);

    client
        .secrets()
        .inNamespace("kuik-system")
        .resource(
            new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata()
                .withName("registry-login")
                .endMetadata()
                .build())
        .create();
    await().atMost(Duration.ofSeconds(10)).until(() -> sources(notifications).size() == 1);
    client.secrets().inNamespace("kuik-system").withName("registry-login").delete();
    await().atMost(Duration.ofSeconds(10)).until(() -> sources(notifications).size() == 2);

    assertEquals(
        List.of(
            new Notification.SourceNotified("registry-login"),
            new Notification.SourceNotified("registry-login")),
        sources(notifications));
  }

  private static List<Notification> sources(List<Notification> notifications) {
    return notifications.stream().filter(n -> n instanceof Notification.SourceNotified).toList();
  }

  @Test
  void eachInformerIsToldByItsNameWhenTheApiServerGoes() throws Exception {
    create("kuik-system");
    informers = new SyncerInformers(syncerClient, stores, "kuik-system");
    informers.start(recording()).get(30, TimeUnit.SECONDS);

    InformersDown.awaitEachToldByName(
        cluster,
        List.of(
            "pods",
            "namespaces",
            "imagealternatives",
            "imagemirrors",
            "the Secrets of kuik-system"));
  }

  private void create(String name) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  private void edit(String name, java.util.function.UnaryOperator<NamespaceBuilder> change) {
    client.namespaces().withName(name).edit(ns -> change.apply(new NamespaceBuilder(ns)).build());
  }

  /**
   * The production path: the informers' notifications through the intake, started before the first
   * list (so that its adds are announced too).
   */
  private java.util.function.Consumer<Notification> recording() {
    Intake intake = new Intake(stores);
    intake.started(java.time.Instant.EPOCH);
    return notification ->
        intake
            .input(notification, java.time.Instant.EPOCH)
            .ifPresent(
                input -> {
                  if (input instanceof Input.NamespaceChanged changed) {
                    announced.add("changed " + changed.name());
                  } else if (input instanceof Input.NamespaceDeleted deleted) {
                    announced.add("deleted " + deleted.name());
                  }
                });
  }
}
