package io.kuik.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.ServerSocket;
import java.net.URI;
import org.junit.jupiter.api.Test;

/**
 * {@code kuik_api_requests_total{verb,code}} and {@code kuik_api_request_duration_seconds{verb}},
 * as client-go's rest_client metrics count them: every request of the client by its HTTP method (a
 * watch as WATCH) and the API server's code, {@code none} when nothing answered; each verb's
 * latency series there from the first scrape.
 */
@EnableKubernetesMockClient
class ApiClientMetricsTest {

  KubernetesMockServer server;

  private final ApiClientMetrics metrics = new ApiClientMetrics();
  private final PrometheusRegistry registry = new PrometheusRegistry();

  /** With the commands' two retries (ClusterConnection). */
  private KubernetesClient instrumented(String url) {
    metrics.registerIn(registry);
    return new KubernetesClientBuilder()
        .withConfig(
            new ConfigBuilder(Config.empty())
                .withMasterUrl(url)
                .withTrustCerts(true)
                .withRequestRetryBackoffLimit(2)
                .withRequestRetryBackoffInterval(10)
                .build())
        .withHttpClientBuilderConsumer(metrics::instrument)
        .build();
  }

  private String scrape() {
    return Metrics.text(registry);
  }

  @Test
  void everyVerbsLatencyIsThereFromTheFirstScrape() throws Exception {
    metrics.registerIn(registry);
    String scraped = scrape();
    for (String verb : new String[] {"GET", "PATCH", "POST", "PUT", "WATCH"}) {
      assertEquals(
          0,
          Metrics.value(scraped, "kuik_api_request_duration_seconds_count{verb=\"" + verb + "\"}"),
          verb);
    }
  }

  @Test
  void requestsAreCountedByVerbAndCodeWithTheirLatency() throws Exception {
    server
        .expect()
        .get()
        .withPath("/api/v1/namespaces/team-a/pods/web")
        .andReturn(200, new PodBuilder().withNewMetadata().withName("web").endMetadata().build())
        .times(2);
    server
        .expect()
        .delete()
        .withPath("/api/v1/namespaces/team-a/pods/web")
        .andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden").build())
        .once();
    try (KubernetesClient client = instrumented(server.url("/"))) {
      client.pods().inNamespace("team-a").withName("web").get();
      client.pods().inNamespace("team-a").withName("web").get();
      assertThrows(
          KubernetesClientException.class,
          () -> client.pods().inNamespace("team-a").withName("web").delete());
    }

    String scraped = scrape();
    assertEquals(2, Metrics.value(scraped, "kuik_api_requests_total{code=\"200\",verb=\"GET\"}"));
    assertEquals(
        1, Metrics.value(scraped, "kuik_api_requests_total{code=\"403\",verb=\"DELETE\"}"));
    assertEquals(
        2, Metrics.value(scraped, "kuik_api_request_duration_seconds_count{verb=\"GET\"}"));
    double seconds = Metrics.value(scraped, "kuik_api_request_duration_seconds_sum{verb=\"GET\"}");
    assertTrue(seconds > 0 && seconds < 30, "the time to the headers: " + seconds);
  }

  @Test
  void aRequestNobodyAnsweredCountsWithCodeNone() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    try (KubernetesClient client = instrumented("http://127.0.0.1:" + closed)) {
      assertThrows(
          KubernetesClientException.class,
          () -> client.pods().inNamespace("team-a").withName("web").get());
    }

    // fabric8 tells the interceptor of each attempt it retries (two here), not of the last one.
    assertTrue(Metrics.value(scrape(), "kuik_api_requests_total{code=\"none\",verb=\"GET\"}") >= 1);
  }

  @Test
  void aWatchIsCountedAsWatchWhateverItsMethod() {
    try (KubernetesClient client = instrumented(server.url("/"))) {
      for (String query : new String[] {"watch=true", "limit=500&watch=1"}) {
        HttpRequest watch =
            client
                .getHttpClient()
                .newHttpRequestBuilder()
                .uri(URI.create(server.url("/api/v1/pods?" + query)))
                .build();
        assertEquals("WATCH", ApiClientMetrics.verb(watch), query);
      }
      HttpRequest list =
          client
              .getHttpClient()
              .newHttpRequestBuilder()
              .uri(URI.create(server.url("/api/v1/pods?limit=500")))
              .build();
      assertEquals("GET", ApiClientMetrics.verb(list));
    }
  }
}
