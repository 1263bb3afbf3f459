package io.kuik.scale;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.kuik.kube.MockCluster;
import io.kuik.kube.ServerSideApplyDispatcher;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The indexed store answers every request the syncer and the harness send as fabric8's own CRUD
 * store answers it: the same requests go to both, and each read must come back the same (but for
 * the uid and creation time each store draws itself, and list order, which the index sorts).
 */
class IndexedApiStoreTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String LABEL = "kuik.enix.io/images-rewritten";

  /** Started only by the tests that compare the two stores. */
  private Side fabric8;

  private Side indexed;

  private void startBoth() {
    fabric8 = new Side(ServerSideApplyDispatcher.withRoutingKinds());
    indexed = new Side(new IndexedApiStore(ServerSideApplyDispatcher.routingKinds()));
  }

  @AfterEach
  void close() {
    if (fabric8 != null) {
      fabric8.close();
      indexed.close();
    }
  }

  @Test
  void answersGetsListsSelectorsPagesAndAppliesAsFabric8sStoreDoes() throws Exception {
    startBoth();
    both(
        c -> {
          for (String ns : List.of("team-a", "team-b")) {
            c.resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                .create();
          }
          c.resource(pod("team-a", "app-1", true)).create();
          c.resource(pod("team-a", "app-2", false)).create();
          c.resource(pod("team-b", "app-1", true)).create();
          c.resource(pod("team-b", "app-3", true)).create();
          apply(c, "team-a", "pull", "b25l");
          apply(c, "team-b", "pull", "b25l");
        });
    assertSameReads();

    both(
        c -> {
          apply(c, "team-a", "pull", "dHdv"); // changed
          apply(c, "team-b", "pull", "b25l"); // unchanged: no new resourceVersion
          c.pods()
              .inNamespace("team-b")
              .withName("app-3")
              .edit(
                  p ->
                      new PodBuilder(p)
                          .editMetadata()
                          .removeFromLabels(LABEL)
                          .endMetadata()
                          .build());
          c.pods().inNamespace("team-a").withName("app-1").delete();
        });
    assertSameReads();
    assertEquals(404, indexed.get("/api/v1/namespaces/team-a/pods/app-1").statusCode());
  }

  @Test
  void sendsAWatchTheSameEventsAsFabric8sStoreDoes() throws Exception {
    startBoth();
    List<String> fabric8Events = fabric8.watchRewrittenPods();
    List<String> indexedEvents = indexed.watchRewrittenPods();
    both(
        c -> {
          c.resource(pod("team-a", "app-1", true)).create();
          c.resource(pod("team-a", "app-2", false)).create();
          c.pods()
              .inNamespace("team-a")
              .withName("app-1")
              .edit(
                  p ->
                      new PodBuilder(p)
                          .editMetadata()
                          .addToLabels("tier", "web")
                          .endMetadata()
                          .build());
          c.pods()
              .inNamespace("team-a")
              .withName("app-2")
              .edit(
                  p ->
                      new PodBuilder(p)
                          .editMetadata()
                          .addToLabels(LABEL, "true")
                          .endMetadata()
                          .build());
          c.pods().inNamespace("team-a").withName("app-1").delete();
        });

    List<String> expected =
        List.of("ADDED app-1", "MODIFIED app-1", "ADDED app-2", "DELETED app-1");
    await().atMost(Duration.ofSeconds(10)).until(() -> indexedEvents.size() >= expected.size());
    await().atMost(Duration.ofSeconds(10)).until(() -> fabric8Events.size() >= expected.size());
    assertEquals(expected, fabric8Events, "the reference store");
    assertEquals(fabric8Events, indexedEvents);
  }

  @Test
  void opensAWatchFromAResourceVersionWithWhatChangedSinceAsTheApiServerDoes() throws Exception {
    try (Side side = new Side(new IndexedApiStore(ServerSideApplyDispatcher.routingKinds()))) {
      KubernetesClient c = side.client;
      c.resource(new NamespaceBuilder().withNewMetadata().withName("team-a").endMetadata().build())
          .create();
      c.resource(pod("team-a", "listed-1", true)).create();
      c.resource(pod("team-a", "listed-2", true)).create();
      String listed =
          c.pods()
              .inAnyNamespace()
              .withLabel(LABEL, "true")
              .list()
              .getMetadata()
              .getResourceVersion();
      c.resource(pod("team-a", "between", true)).create();

      List<String> fromList = side.watchRewrittenPods(listed);
      List<String> fromScratch = side.watchRewrittenPods("");
      c.resource(pod("team-a", "after", true)).create();

      await().atMost(Duration.ofSeconds(10)).until(() -> fromList.size() >= 2);
      await().atMost(Duration.ofSeconds(10)).until(() -> fromScratch.size() >= 4);
      Thread.sleep(200); // nothing more may come
      assertEquals(List.of("ADDED between", "ADDED after"), fromList);
      assertEquals(
          List.of("ADDED after", "ADDED between", "ADDED listed-1", "ADDED listed-2"),
          fromScratch.stream().sorted().toList(),
          "without a version, the whole state first, as fabric8 and the API server send it");
    }
  }

  @Test
  void looksOnlyAtTheObjectsOfTheResourceAndNamespaceARequestNames() {
    IndexedApiStore store = new IndexedApiStore(ServerSideApplyDispatcher.routingKinds());
    for (int j = 0; j < 3; j++) {
      String namespace = "team-" + j;
      store.seed("/api/v1/namespaces", ScaleWorkload.namespaceJson(namespace));
      for (int s = 0; s < 4; s++) {
        store.seed(
            "/api/v1/namespaces/" + namespace + "/secrets",
            ScaleWorkload.unrelatedSecretJson(namespace, s));
      }
      store.seed(
          "/api/v1/namespaces/" + namespace + "/pods",
          ScaleWorkload.podJson(namespace, "app-0", "onfailure-0", j));
      store.seed(
          "/api/v1/namespaces/" + namespace + "/pods",
          ScaleWorkload.podJson(namespace, "app-1", null, j));
    }
    try (Side side = new Side(store)) {
      KubernetesClient c = side.client;
      String secret =
          c.secrets().inNamespace("team-1").list().getItems().get(2).getMetadata().getName();
      long before = store.examined();

      c.secrets().inNamespace("team-1").withName(secret).get();
      assertEquals(1, store.examined() - before, "a get: that object alone");

      before = store.examined();
      assertEquals(4, c.secrets().inNamespace("team-1").list().getItems().size());
      assertEquals(
          4, store.examined() - before, "a list of one namespace: its objects of that kind");

      before = store.examined();
      assertEquals(3, c.pods().inAnyNamespace().withLabel(LABEL, "true").list().getItems().size());
      assertEquals(6, store.examined() - before, "a cluster-wide selector: the pods alone");

      before = store.examined();
      apply(c, "team-2", "pull", "b25l");
      assertEquals(0, store.examined() - before, "an apply that creates: nothing to look at");

      before = store.examined();
      apply(c, "team-2", "pull", "dHdv");
      assertEquals(2, store.examined() - before, "an apply that merges: that object, twice");
    }
  }

  @Test
  void tellsObjectAndCollectionPathsFromDiscoveryAndSubresources() {
    assertTrue(IndexedApiStore.isObjectOrCollection("/api/v1/pods?labelSelector=a%3Db"));
    assertTrue(IndexedApiStore.isObjectOrCollection("/api/v1/namespaces/team-a"));
    assertTrue(IndexedApiStore.isObjectOrCollection("/api/v1/namespaces/team-a/secrets"));
    assertTrue(IndexedApiStore.isObjectOrCollection("/api/v1/namespaces/team-a/secrets/pull"));
    assertTrue(
        IndexedApiStore.isObjectOrCollection("/apis/kuik.enix.io/v1alpha1/imagealternatives/a"));
    assertFalse(IndexedApiStore.isObjectOrCollection("/apis/kuik.enix.io/v1alpha1"));
    assertFalse(IndexedApiStore.isObjectOrCollection("/api/v1"));
    assertFalse(
        IndexedApiStore.isObjectOrCollection(
            "/apis/kuik.enix.io/v1alpha1/imagealternatives/a/status"));
  }

  private void assertSameReads() throws Exception {
    for (String path :
        List.of(
            "/api/v1/namespaces",
            "/api/v1/namespaces/team-b",
            "/api/v1/namespaces/team-a/pods",
            "/api/v1/namespaces/team-a/pods/app-2",
            "/api/v1/namespaces/team-a/pods/missing",
            "/api/v1/pods",
            "/api/v1/pods?labelSelector="
                + URLEncoder.encode(LABEL + "=true", StandardCharsets.UTF_8),
            "/api/v1/pods?labelSelector=" + URLEncoder.encode("!" + LABEL, StandardCharsets.UTF_8),
            "/api/v1/namespaces/team-b/secrets/pull",
            "/api/v1/namespaces/team-c/secrets",
            "/apis/kuik.enix.io/v1alpha1/imagealternatives",
            "/apis/kuik.enix.io/v1alpha1")) {
      assertEquals(fabric8.read(path), indexed.read(path), path);
    }
    assertEquals(fabric8.readAllPages("/api/v1/pods"), indexed.readAllPages("/api/v1/pods"));
  }

  private void both(ThrowingConsumer<KubernetesClient> requests) throws Exception {
    requests.accept(fabric8.client);
    requests.accept(indexed.client);
  }

  private interface ThrowingConsumer<T> {
    void accept(T value) throws Exception;
  }

  private static Pod pod(String namespace, String name, boolean rewritten) {
    PodBuilder pod =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .addToLabels("app", name)
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("app")
            .withImage("nginx")
            .endContainer()
            .endSpec();
    if (rewritten) {
      pod.editMetadata().addToLabels(LABEL, "true").endMetadata();
    }
    return pod.build();
  }

  private static void apply(KubernetesClient client, String namespace, String name, String data) {
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withType("kubernetes.io/dockerconfigjson")
                .addToData(".dockerconfigjson", data)
                .build())
        .fieldManager("kuik")
        .forceConflicts()
        .serverSideApply();
  }

  /** One mock API server and a client of it. */
  private static final class Side implements AutoCloseable {
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final List<Watch> watches = new ArrayList<>();

    Side(ServerSideApplyDispatcher store) {
      server =
          new KubernetesMockServer(
              new Context(), MockCluster.webServer(), new HashMap<>(), store, false);
      server.init();
      client = server.createClient();
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path)).build(),
          HttpResponse.BodyHandlers.ofString());
    }

    /** The status and the body, without what each store draws itself, list items sorted. */
    String read(String path) throws IOException, InterruptedException {
      HttpResponse<String> response = get(path);
      if (response.body() == null || response.body().isBlank()) {
        return response.statusCode() + "";
      }
      return response.statusCode() + " " + JSON.writeValueAsString(normalized(response.body()));
    }

    /** Every item of a paged list (limit 1), followed through its continue tokens. */
    List<String> readAllPages(String path) throws IOException, InterruptedException {
      List<String> items = new ArrayList<>();
      String token = "";
      do {
        JsonNode page =
            JSON.readTree(
                get(path + "?limit=1" + (token.isEmpty() ? "" : "&continue=" + token)).body());
        page.get("items").forEach(i -> items.add(JSON.writeValueAsString(withoutDrawn(i))));
        token = page.path("metadata").path("continue").asString("");
      } while (!token.isEmpty());
      items.sort(Comparator.naturalOrder());
      return items;
    }

    List<String> watchRewrittenPods() {
      return watchRewrittenPods("");
    }

    /** A watch of the rewritten pods from {@code resourceVersion} (none if empty). */
    List<String> watchRewrittenPods(String resourceVersion) {
      List<String> events = new CopyOnWriteArrayList<>();
      ListOptions options = new ListOptions();
      if (!resourceVersion.isEmpty()) {
        options.setResourceVersion(resourceVersion);
      }
      watches.add(
          client
              .pods()
              .inAnyNamespace()
              .withLabel(LABEL, "true")
              .watch(
                  options,
                  new Watcher<Pod>() {
                    @Override
                    public void eventReceived(Action action, Pod pod) {
                      events.add(action + " " + pod.getMetadata().getName());
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                  }));
      return events;
    }

    private static JsonNode normalized(String body) {
      JsonNode node = JSON.readTree(body);
      if (node.has("items")) {
        List<JsonNode> items = new ArrayList<>();
        node.get("items").forEach(i -> items.add(withoutDrawn(i)));
        items.sort(Comparator.comparing(i -> key(i)));
        ArrayNode sorted = ((ObjectNode) node).putArray("items");
        items.forEach(sorted::add);
        return node;
      }
      return withoutDrawn(node);
    }

    private static String key(JsonNode item) {
      return item.path("metadata").path("namespace").asString("")
          + "/"
          + item.path("metadata").path("name").asString("");
    }

    private static JsonNode withoutDrawn(JsonNode item) {
      JsonNode metadata = item.path("metadata");
      if (metadata instanceof ObjectNode m) {
        m.remove(List.of("uid", "creationTimestamp"));
      }
      return item;
    }

    @Override
    public void close() {
      watches.forEach(Watch::close);
      client.close();
      server.destroy();
    }
  }
}
