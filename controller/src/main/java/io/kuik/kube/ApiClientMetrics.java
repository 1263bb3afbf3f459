package io.kuik.kube;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;

/**
 * The API client's requests, as client-go's {@code rest_client_*} metrics count them: by verb and
 * HTTP code, and their latency up to the response's headers. A fabric8 {@link Interceptor} on the
 * client sees every request, the informers' lists and watches included; a request that got no
 * answer counts with code {@code none}.
 *
 * <p>The verb is the HTTP method, or {@code WATCH} for a watch (its latency is the time to the
 * first byte, not the watch's life).
 */
public final class ApiClientMetrics implements Interceptor {

  static final String NAME = "kuik-api-metrics";

  private final Counter requests =
      Counter.builder()
          .name("kuik_api_requests")
          .help("Requests to the Kubernetes API server, by verb and HTTP code (none: no answer)")
          .labelNames("verb", "code")
          .build();
  private final Histogram latency =
      Histogram.builder()
          .name("kuik_api_request_duration_seconds")
          .help("Time from sending a request to the API server to its response's headers")
          .labelNames("verb")
          .classicOnly()
          .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
          .build();

  public ApiClientMetrics() {
    for (String verb : List.of("GET", "PATCH", "POST", "PUT", "WATCH")) {
      latency.initLabelValues(verb);
    }
  }

  /** Adds this interceptor to a client being built. */
  public void instrument(HttpClient.Builder builder) {
    builder.addOrReplaceInterceptor(NAME, this);
  }

  /** Serves the metrics from {@code registry} (the process's {@code /metrics}). */
  public void registerIn(PrometheusRegistry registry) {
    registry.register(requests);
    registry.register(latency);
  }

  /**
   * The send time rides on the request itself: fabric8 hands {@code after} a request rebuilt from
   * the builder (another id), so a map keyed by the request never matched.
   */
  static final String SENT_AT = "X-Kuik-Sent-At-Nanos";

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    builder.setHeader(SENT_AT, Long.toString(System.nanoTime()));
  }

  @Override
  public void after(
      HttpRequest request,
      HttpResponse<?> response,
      AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    finished(request, Integer.toString(response.code()));
  }

  @Override
  public void afterConnectionFailure(HttpRequest request, Throwable failure) {
    finished(request, "none");
  }

  private void finished(HttpRequest request, String code) {
    String verb = verb(request);
    requests.labelValues(verb, code).inc();
    String sentAt = request.header(SENT_AT);
    if (sentAt != null) {
      try {
        latency.labelValues(verb).observe((System.nanoTime() - Long.parseLong(sentAt)) / 1e9);
      } catch (NumberFormatException notOurs) {
        // a header of that name set by someone else: no latency for this request
      }
    }
  }

  static String verb(HttpRequest request) {
    String query = request.uri().getRawQuery();
    if (query != null && (query.contains("watch=true") || query.contains("watch=1"))) {
      return "WATCH";
    }
    return request.method().toUpperCase(Locale.ROOT);
  }
}
