package io.kuik.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;

/**
 * The pod webhook's HTTPS endpoint, a thin layer over {@link AdmissionHandler}: {@code POST
 * /mutate-pods} (the path the chart's webhook configuration calls) with an AdmissionReview v1 body,
 * {@code GET /healthz} and {@code GET /readyz}. TLS comes from the PEM files of {@code
 * --tls-cert-file} and {@code --tls-key-file}, reloaded when they change ({@link
 * ReloadingKeyManager}).
 *
 * <p>Limits: a body over {@link Settings#maxBodyBytes()} is answered 413 without being read; the
 * JDK server's per-request read and write times ({@link ServerLimits}) are 10 s unless the JVM was
 * given its own; admissions run on a bounded pool whose overflow the JDK server answers by closing
 * the connection; one client address has at most three quarters of the admission threads at once
 * ({@link ClientShares}), and a request beyond its share is answered 429 before its body is read.
 * Every failure of the API server's call (a closed connection, a 413, a timeout) admits the pod
 * unchanged under the chart's {@code failurePolicy: Ignore}.
 */
public final class WebhookServer implements AutoCloseable {

  public static final String MUTATE_PODS = "/mutate-pods";

  private static final System.Logger LOG = System.getLogger(WebhookServer.class.getName());

  /**
   * @param address where to listen, e.g. {@code 0.0.0.0:8443}
   * @param certFile PEM certificate chain, leaf first
   * @param keyFile PEM private key of the leaf
   * @param reloadCheckInterval how often, at most, a handshake reads the files again
   * @param maxBodyBytes the largest AdmissionReview accepted
   * @param threads admissions handled at once
   */
  public record Settings(
      InetSocketAddress address,
      Path certFile,
      Path keyFile,
      Duration reloadCheckInterval,
      int maxBodyBytes,
      int threads) {

    public static final Duration DEFAULT_RELOAD_CHECK_INTERVAL = Duration.ofSeconds(5);

    /** Above the API server's 3 MiB request limit, so a legal pod is never refused for size. */
    public static final int DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

    /**
     * Admissions in progress at once. An admission mostly waits: for its probes, up to the probe
     * timeout when a registry does not answer, which every new image there does. So the pool is
     * sized for waiting, not for cores: 128 cover 64 admissions a second that each wait the whole 2
     * s timeout, more than two cores route in all (decisions, "Webhook under load"); more would
     * cost stack and heap for admissions the API server has given up on. Idle threads end after a
     * minute.
     */
    public static final int DEFAULT_THREADS = 128;

    /** Admissions queued when every thread is busy; beyond, the connection is closed. */
    public static final int MAX_QUEUED = 64;

    public Settings {
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(certFile, "certFile");
      Objects.requireNonNull(keyFile, "keyFile");
      Objects.requireNonNull(reloadCheckInterval, "reloadCheckInterval");
      if (maxBodyBytes < 1 || threads < 1) {
        throw new IllegalArgumentException("maxBodyBytes and threads must be positive");
      }
    }

    public static Settings of(InetSocketAddress address, Path certFile, Path keyFile) {
      return new Settings(
          address,
          certFile,
          keyFile,
          DEFAULT_RELOAD_CHECK_INTERVAL,
          DEFAULT_MAX_BODY_BYTES,
          DEFAULT_THREADS);
    }
  }

  private final HttpsServer server;
  private final ExecutorService workers;

  private WebhookServer(HttpsServer server, ExecutorService workers) {
    this.server = server;
    this.workers = workers;
  }

  /**
   * Told of every request to {@code /mutate-pods} once answered: its result ({@code answered},
   * {@code too_large}, {@code wrong_method}, {@code not_found}, {@code failed}), the HTTP code and
   * how long it took. Called on the admission thread; must not block or throw.
   */
  @FunctionalInterface
  public interface Observer {
    Observer NONE = (result, code, nanos) -> {};

    void served(String result, int code, long nanos);
  }

  /** Starts serving, observed by nobody. */
  public static WebhookServer start(
      Settings settings, AdmissionHandler handler, BooleanSupplier ready)
      throws IOException, GeneralSecurityException {
    return start(settings, handler, ready, Observer.NONE);
  }

  /**
   * Starts serving.
   *
   * @param ready true once the resource and namespace views have synced
   * @throws GeneralSecurityException naming the files when the certificate or key cannot be read
   */
  public static WebhookServer start(
      Settings settings, AdmissionHandler handler, BooleanSupplier ready, Observer observer)
      throws IOException, GeneralSecurityException {
    ReloadingKeyManager keys =
        new ReloadingKeyManager(
            settings.certFile(),
            settings.keyFile(),
            settings.reloadCheckInterval(),
            System::nanoTime);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(new KeyManager[] {keys}, null, new SecureRandom());
    ServerLimits.apply();
    HttpsServer server = HttpsServer.create(settings.address(), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(tls) {
          @Override
          public void configure(HttpsParameters parameters) {
            parameters.setSSLParameters(tls.getDefaultSSLParameters());
          }
        });
    ExecutorService workers = workers(settings.threads());
    server.setExecutor(workers);
    ClientShares shares = ClientShares.ofThreads(settings.threads());
    server.createContext(
        MUTATE_PODS,
        exchange -> {
          long started = System.nanoTime();
          String result = "failed";
          int code = 500;
          InetAddress client = exchange.getRemoteAddress().getAddress();
          if (!shares.enter(client)) {
            try (exchange) {
              HealthEndpoints.text(exchange, 429, "too many admissions from this client at once\n");
            } finally {
              observer.served("over_its_share", 429, System.nanoTime() - started);
            }
            return;
          }
          try {
            result = mutate(exchange, handler, settings);
            code = exchange.getResponseCode();
          } finally {
            shares.leave(client);
            observer.served(result, code, System.nanoTime() - started);
          }
        });
    HealthEndpoints.mount(server, ready);
    server.createContext(
        "/",
        exchange -> {
          try (exchange) {
            HealthEndpoints.text(exchange, 404, "not found\n");
          }
        });
    server.start();
    LOG.log(
        Level.INFO,
        "webhook serving {0} on {1} with the certificate of {2} (subject {3})",
        MUTATE_PODS,
        server.getAddress(),
        settings.certFile(),
        keys.servedCertificate().getSubjectX500Principal().getName());
    return new WebhookServer(server, workers);
  }

  /**
   * Starts the plain-HTTP health server the chart's probes call ({@code --health-port}): {@code
   * /healthz} and {@code /readyz} only.
   */
  public static HttpServer startHealth(InetSocketAddress address, BooleanSupplier ready)
      throws IOException {
    HttpServer server = HttpServer.create(address, 0);
    HealthEndpoints.mount(server, ready);
    server.start();
    return server;
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    server.stop(1);
    workers.shutdownNow();
  }

  /** Answers one request; returns its result for the {@link Observer}. */
  private static String mutate(HttpExchange exchange, AdmissionHandler handler, Settings settings)
      throws IOException {
    try (exchange) {
      if (!exchange.getRequestURI().getPath().equals(MUTATE_PODS)) {
        HealthEndpoints.text(exchange, 404, "not found\n");
        return "not_found";
      }
      if (!exchange.getRequestMethod().equals("POST")) {
        exchange.getResponseHeaders().add("Allow", "POST");
        HealthEndpoints.text(exchange, 405, "POST an AdmissionReview\n");
        return "wrong_method";
      }
      byte[] body = readAtMost(exchange.getRequestBody(), settings.maxBodyBytes());
      if (body == null) {
        LOG.log(
            Level.WARNING,
            "admission body over {0} bytes: refused with 413",
            settings.maxBodyBytes());
        HealthEndpoints.text(exchange, 413, "AdmissionReview too large\n");
        return "too_large";
      }
      byte[] answer = handler.handle(body);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
      return "answered";
    }
  }

  /** The whole body, or {@code null} as soon as it passes {@code limit}. */
  private static byte[] readAtMost(InputStream in, int limit) throws IOException {
    byte[] body = in.readNBytes(limit + 1);
    return body.length > limit ? null : body;
  }

  private static ExecutorService workers(int threads) {
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor workers =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(Math.min(threads * 4, Settings.MAX_QUEUED)),
            task -> {
              Thread thread = new Thread(task, "kuik-admission-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    workers.allowCoreThreadTimeOut(true);
    return workers;
  }
}
