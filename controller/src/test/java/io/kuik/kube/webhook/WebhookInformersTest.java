package io.kuik.kube.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kuik.kube.InformersDown;
import io.kuik.kube.MockCluster;
import io.kuik.model.Validated;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.ImageMirror;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The webhook's informers on fabric8's mock API server: the webhook turns ready when their start
 * completes, so by then the routing index must hold every resource they listed, not only those
 * whose add notification (delivered later, on the informers' own thread) has already arrived. The
 * test holds every notification back until it has looked, so the race has one outcome.
 */
class WebhookInformersTest {

  private static final int ALTERNATIVES = 4;
  private static final int MIRRORS = 2;

  /** Routing whose notifications from the informers wait until the test releases them. */
  private static final class HeldRouting extends WebhookRouting {
    final CountDownLatch released = new CountDownLatch(1);

    @Override
    void changed(Validated resource) {
      try {
        released.await();
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      super.changed(resource);
    }
  }

  private final MockCluster cluster = new MockCluster();
  private final KubernetesClient client = cluster.client();

  /** The webhook's own client, as the command builds it, closed before the server. */
  private final KubernetesClient webhookClient = new KubernetesClientBuilder().build();

  private WebhookInformers informers;

  @AfterEach
  void stop() {
    if (informers != null) {
      informers.close();
    }
    webhookClient.close();
    cluster.close();
  }

  @Test
  void startCompletesOnlyOnceTheIndexHoldsEveryListedResource() throws Exception {
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName("kuik-system").endMetadata().build())
        .create();
    for (int i = 0; i < ALTERNATIVES; i++) {
      client.resource(alternative("alternative-" + i)).create();
    }
    for (int i = 0; i < MIRRORS; i++) {
      client.resource(mirror("mirror-" + i)).create();
    }
    HeldRouting routing = new HeldRouting();
    informers = new WebhookInformers(webhookClient, "kuik-system");

    try {
      informers.start(routing).get(30, TimeUnit.SECONDS);

      assertEquals(ALTERNATIVES + MIRRORS, routing.valid());
      assertEquals(0, routing.invalid());
    } finally {
      routing.released.countDown();
    }
  }

  @Test
  void eachInformerIsToldByItsNameWhenTheApiServerGoes() throws Exception {
    informers = new WebhookInformers(webhookClient, "kuik-system");
    informers.start(new WebhookRouting()).get(30, TimeUnit.SECONDS);

    InformersDown.awaitEachToldByName(
        cluster,
        java.util.List.of(
            "imagealternatives", "imagemirrors", "namespaces", "the Secrets of kuik-system"));
  }

  @Test
  void aNamespacesLabelsAreReadFromTheCacheAndNoneIsAnEmptyMap() throws Exception {
    for (var entry :
        Map.of("kuik-system", Map.<String, String>of(), "team-a", Map.of("tier", "prod"))
            .entrySet()) {
      client
          .namespaces()
          .resource(
              new NamespaceBuilder()
                  .withNewMetadata()
                  .withName(entry.getKey())
                  .withLabels(entry.getValue().isEmpty() ? null : entry.getValue())
                  .endMetadata()
                  .build())
          .create();
    }
    informers = new WebhookInformers(webhookClient, "kuik-system");
    informers.start(new WebhookRouting()).get(30, TimeUnit.SECONDS);

    assertEquals(Optional.of(Map.of("tier", "prod")), informers.namespaceLabels("team-a"));
    assertEquals(Optional.of(Map.of()), informers.namespaceLabels("kuik-system"));
    assertEquals(Optional.empty(), informers.namespaceLabels("team-b"));
    assertEquals(Optional.empty(), informers.namespaceLabels(null));
    assertTrue(informers.noneStopped());
    informers.close();
    assertFalse(informers.noneStopped(), "stopped informers are stopped ones");
  }

  @Test
  void aResourceChangedAfterTheStartIsValidatedAgainAndADeletedOneForgotten() throws Exception {
    client.resource(alternative("acme")).create();
    WebhookRouting routing = new WebhookRouting();
    informers = new WebhookInformers(webhookClient, "kuik-system");
    informers.start(routing).get(30, TimeUnit.SECONDS);
    assertEquals(1, routing.valid());

    client
        .genericKubernetesResources("kuik.enix.io/v1alpha1", "ImageAlternative")
        .withName("acme")
        .edit(
            resource -> {
              resource.setAdditionalProperty("spec", Map.of("alternatives", "oops"));
              return resource;
            });
    org.awaitility.Awaitility.await("acme invalid")
        .atMost(java.time.Duration.ofSeconds(10))
        .until(() -> routing.invalid() == 1 && routing.valid() == 0);

    client.resource(alternative("acme")).delete();
    org.awaitility.Awaitility.await("acme forgotten")
        .atMost(java.time.Duration.ofSeconds(10))
        .until(() -> routing.invalid() == 0 && routing.valid() == 0);
  }

  private ImageAlternative alternative(String name) {
    return client
        .getKubernetesSerialization()
        .unmarshal(
            String.join(
                "\n",
                "apiVersion: kuik.enix.io/v1alpha1",
                "kind: ImageAlternative",
                "metadata: {name: " + name + "}",
                "spec:",
                "  alternatives:",
                "  - repository: quay.io/" + name + "/app",
                "  - repository: registry.example.com/" + name + "/app",
                ""),
            ImageAlternative.class);
  }

  private ImageMirror mirror(String name) {
    return client
        .getKubernetesSerialization()
        .unmarshal(
            String.join(
                "\n",
                "apiVersion: kuik.enix.io/v1alpha1",
                "kind: ImageMirror",
                "metadata: {name: " + name + "}",
                "spec:",
                "  destination: {path: registry.example.com/" + name + "/}",
                ""),
            ImageMirror.class);
  }
}
