package io.kuik.scale;

import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The mock API server's request log for the syncer's requests (those carrying its bearer token):
 * counts by verb and resource, the list pages and the bytes they returned, and for each Secret the
 * time of its first apply and how many applies left it as it was (a resync's re-applies), and the
 * time the store behind it took to answer each (a watch's: its upgrade only). {@link #mark()}
 * starts a new window of counts; the apply times are kept for the whole run.
 */
final class ApiLedger extends Dispatcher {

  /**
   * When the syncer's first successful patch of the pod {@code namespace/name} (the removal of its
   * pull-secret gate) was answered, on {@link System#nanoTime}; null before.
   */
  Long gateReleased(String pod) {
    return gateReleased.get(pod);
  }

  /** One request as the authorizer names it: verb, resource, namespace and name. */
  record Call(String verb, String resource, String namespace, String name) {

    static Call of(String method, String contentType, String pathAndQuery) {
      int q = pathAndQuery.indexOf('?');
      String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
      String query = q < 0 ? "" : pathAndQuery.substring(q + 1);
      String[] parts = path.replaceAll("^/+", "").split("/");
      int rest = parts.length > 0 && parts[0].equals("api") ? 2 : 3;
      String namespace = "";
      String resource = "";
      String name = "";
      if (parts.length > rest) {
        if (parts[rest].equals("namespaces") && parts.length > rest + 2) {
          namespace = parts[rest + 1];
          resource = parts[rest + 2];
          name = parts.length > rest + 3 ? parts[rest + 3] : "";
        } else {
          resource = parts[rest];
          name = parts.length > rest + 1 ? parts[rest + 1] : "";
        }
      }
      String verb =
          switch (method) {
            case "GET" -> query.contains("watch=true") ? "watch" : name.isEmpty() ? "list" : "get";
            case "PATCH" ->
                contentType != null && contentType.startsWith("application/apply-patch")
                    ? "apply"
                    : "patch";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "DELETE" -> "delete";
            default -> method.toLowerCase(java.util.Locale.ROOT);
          };
      return new Call(verb, resource, namespace, name);
    }
  }

  private final Dispatcher delegate;
  private final String syncerToken;
  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> nanos = new ConcurrentHashMap<>();
  private final LongAdder listedBytes = new LongAdder();
  private final LongAdder pages = new LongAdder();
  private final LongAdder reapplies = new LongAdder();
  private final Map<String, Long> firstApply = new ConcurrentHashMap<>();
  private final Map<String, Long> gateReleased = new ConcurrentHashMap<>();
  private final Map<String, Long> lastApply = new ConcurrentHashMap<>();
  private final Map<String, String> lastApplied = new ConcurrentHashMap<>();
  private final AtomicLong lastReapply = new AtomicLong();

  ApiLedger(Dispatcher delegate, String syncerToken) {
    this.delegate = delegate;
    this.syncerToken = syncerToken;
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    boolean bySyncer = ("Bearer " + syncerToken).equals(request.getHeader("Authorization"));
    String body = null;
    if (bySyncer && "PATCH".equals(request.getMethod())) {
      // Reading a request's body consumes it: the store gets a copy.
      byte[] bytes = request.getBody().readByteArray();
      body = new String(bytes, StandardCharsets.UTF_8);
      request =
          new RecordedRequest(
              request.getHttpVersion(),
              request.method(),
              request.getPath(),
              request.getHeaders(),
              new Buffer(bytes));
    }
    long start = System.nanoTime();
    MockResponse response = delegate.dispatch(request);
    long took = System.nanoTime() - start;
    if (bySyncer) {
      record(
          Call.of(request.getMethod(), request.getHeader("Content-Type"), request.getPath()),
          body,
          response,
          took);
    }
    return response;
  }

  private void record(Call call, String body, MockResponse response, long took) {
    String key = call.verb() + " " + call.resource();
    counts.computeIfAbsent(key, k -> new LongAdder()).increment();
    nanos.computeIfAbsent(key, k -> new LongAdder()).add(took);
    if (call.verb().equals("list")) {
      pages.increment();
      if (response.getBody() != null) {
        listedBytes.add(response.getBody().size());
      }
    }
    if (call.verb().equals("patch") && call.resource().equals("pods") && response.code() < 300) {
      gateReleased.putIfAbsent(call.namespace() + "/" + call.name(), System.nanoTime());
    }
    if (call.verb().equals("apply") && call.resource().equals("secrets") && response.code() < 300) {
      String secret = call.namespace() + "/" + call.name();
      long now = System.nanoTime();
      firstApply.putIfAbsent(secret, now);
      lastApply.put(secret, now);
      String before = lastApplied.put(secret, body);
      if (body != null && body.equals(before)) {
        reapplies.increment();
        lastReapply.set(now);
      }
    }
  }

  /**
   * A window of counts, from the last {@link #mark()} (or the start) to now; {@code
   * nanosByVerbAndResource}: the store's time answering them, summed.
   */
  record Window(
      Map<String, Long> byVerbAndResource,
      Map<String, Long> nanosByVerbAndResource,
      long pages,
      long listedBytes,
      long reapplies) {

    /** The store's mean time per request of {@code verbAndResource}, ms; 0 for none. */
    double meanMillis(String verbAndResource) {
      long n = byVerbAndResource.getOrDefault(verbAndResource, 0L);
      return n == 0 ? 0 : nanosByVerbAndResource.getOrDefault(verbAndResource, 0L) / 1e6 / n;
    }

    /** The store's mean time per request over the window, ms; 0 for none. */
    double meanMillis() {
      long n = total();
      return n == 0
          ? 0
          : nanosByVerbAndResource.values().stream().mapToLong(Long::longValue).sum() / 1e6 / n;
    }

    long count(String verb) {
      return byVerbAndResource.entrySet().stream()
          .filter(e -> e.getKey().startsWith(verb + " "))
          .mapToLong(Map.Entry::getValue)
          .sum();
    }

    long total() {
      return byVerbAndResource.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** The counts since the last mark, and a new window from now. */
  synchronized Window mark() {
    Map<String, Long> snapshot = new TreeMap<>();
    counts.forEach((k, v) -> snapshot.put(k, v.sumThenReset()));
    snapshot.values().removeIf(v -> v == 0);
    Map<String, Long> took = new TreeMap<>();
    nanos.forEach((k, v) -> took.put(k, v.sumThenReset()));
    took.keySet().retainAll(snapshot.keySet());
    return new Window(
        snapshot, took, pages.sumThenReset(), listedBytes.sumThenReset(), reapplies.sumThenReset());
  }

  /** When {@code namespace/name} was first applied (System.nanoTime), or null. */
  Long firstApply(String secret) {
    return firstApply.get(secret);
  }

  /**
   * How many of {@code secrets} ({@code namespace/name}) were applied at or after {@code since}.
   */
  long appliedSince(java.util.Collection<String> secrets, long since) {
    return secrets.stream().map(lastApply::get).filter(at -> at != null && at >= since).count();
  }

  /** When a Secret was last re-applied unchanged (System.nanoTime); 0 before any. */
  long lastReapply() {
    return lastReapply.get();
  }

  /** Forgets the first applies, so that the next pass's are measured from scratch. */
  void forgetFirstApplies() {
    firstApply.clear();
  }

  @Override
  public void shutdown() {
    delegate.shutdown();
  }

  @Override
  public void releaseResources() {
    delegate.releaseResources();
  }
}
