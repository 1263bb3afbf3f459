package io.kuik.registry;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;

/**
 * The one way kuik sends a request that carries a registry credential (docs/decisions/
 * 0059-one-http-policy-for-credentials.md): the syncer's credential trials ({@link TokenFlow}), the
 * webhook's probes and every token request of either. A credential goes only where it is for, as
 * containerd's client (Go's {@code net/http}) sends it:
 *
 * <ul>
 *   <li>over HTTPS to any host the registry names (itself, its token realm); over plain HTTP only
 *       when the registry itself is spoken to over plain HTTP and the host could be such a registry
 *       (loopback, or listed insecure): a token realm on plain HTTP for a registry reached over
 *       HTTPS is a downgrade, and gets no credential;
 *   <li>redirects are followed here, never by the HTTP client: with the credential only to the same
 *       scheme, host and port; to another host or port without its {@code Authorization} header,
 *       and not at all when the credential is in the body (a token request's refresh token or
 *       password); never from HTTPS to plain HTTP; at most {@value #MAX_REDIRECTS} hops;
 *   <li>every request, the reading of its answer included, ends within the timeout, and at most
 *       {@value #MAX_BODY_BYTES} bytes of an answer are read: a registry that stalls or answers
 *       without end holds no thread for longer.
 * </ul>
 *
 * Thread-safe. Nothing here logs or keeps a credential.
 */
public final class RegistryHttp {

  /** Redirects followed at most, as hops after the first request. */
  public static final int MAX_REDIRECTS = 5;

  /** The most of an answer's body read; the rest is dropped unread. */
  public static final int MAX_BODY_BYTES = 64 * 1024;

  /**
   * One request. {@code headers} hold no credential; the credential is {@code authorization} (the
   * value of the {@code Authorization} header) and, for a token request, {@code form} when {@code
   * formHoldsCredential} (a refresh token in the body). {@code origin} is the registry the
   * credential is for ({@code http(s)://host[:port]}): what decides whether plain HTTP is a
   * downgrade.
   */
  public record Outgoing(
      String method,
      URI uri,
      URI origin,
      Map<String, String> headers,
      String authorization,
      String form,
      boolean formHoldsCredential) {

    public Outgoing {
      Objects.requireNonNull(method, "method");
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(origin, "origin");
      headers = Map.copyOf(headers);
    }

    /** A GET or HEAD of {@code uri}, for the registry at {@code origin}, without a credential. */
    public static Outgoing of(String method, URI uri, URI origin) {
      return new Outgoing(method, uri, origin, Map.of(), null, null, false);
    }

    public Outgoing header(String name, String value) {
      Map<String, String> more = new LinkedHashMap<>(headers);
      more.put(name, value);
      return new Outgoing(method, uri, origin, more, authorization, form, formHoldsCredential);
    }

    /** With {@code value} as its {@code Authorization} header (null: none). */
    public Outgoing authorization(String value) {
      return new Outgoing(method, uri, origin, headers, value, form, formHoldsCredential);
    }

    /** A POST of an {@code application/x-www-form-urlencoded} body. */
    public Outgoing post(String body, boolean holdsCredential) {
      return new Outgoing("POST", uri, origin, headers, authorization, body, holdsCredential);
    }

    boolean carriesCredential() {
      return authorization != null || formHoldsCredential;
    }

    Outgoing to(URI next, String nextMethod, boolean keepBody, boolean keepCredential) {
      return new Outgoing(
          nextMethod,
          next,
          origin,
          headers,
          keepCredential ? authorization : null,
          keepBody ? form : null,
          keepBody && formHoldsCredential);
    }
  }

  /**
   * The answer that ended a request: the last hop's status, headers and (at most {@value
   * #MAX_BODY_BYTES} bytes of) body, and the URI that gave it. {@code withheld} says why the
   * credential did not go with the request that got this answer (null: it went, or there was none);
   * a {@code 3xx} is a redirect not followed, and {@code withheld} then says why. {@code
   * fromOrigin}: the answer came from the registry the credential is for (its scheme, host and
   * port).
   */
  public record Answer(
      int status, HttpHeaders headers, String body, URI uri, String withheld, boolean fromOrigin) {

    public boolean redirect() {
      return status >= 300 && status < 400;
    }

    /** Whether the credential went to whoever gave this answer. */
    public boolean credentialSent() {
      return withheld == null;
    }

    /**
     * The authentication challenge to answer (Bearer first, then Basic), only from the registry
     * itself: a host a redirect led to may not name the realm a credential goes to.
     */
    public Optional<AuthChallenge> challenge() {
      return fromOrigin
          ? AuthChallenge.select(headers.allValues("WWW-Authenticate"))
          : Optional.empty();
    }
  }

  private final HttpClient http;
  private final Duration timeout;
  private final Set<String> insecureRegistries;

  /** Over the JVM's trust store; each request ends within {@code timeout}. */
  public RegistryHttp(Duration timeout, Set<String> insecureRegistries) {
    this(timeout, insecureRegistries, null);
  }

  /** Trusting {@code tls} instead of the JVM's trust store (null: the JVM's). */
  public RegistryHttp(Duration timeout, Set<String> insecureRegistries, SSLContext tls) {
    HttpClient.Builder builder =
        HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER);
    if (tls != null) {
      builder.sslContext(tls);
    }
    this.http = builder.build();
    this.timeout = timeout;
    this.insecureRegistries = Set.copyOf(insecureRegistries);
  }

  /** The registries spoken to over plain HTTP beside loopback ones. */
  public Set<String> insecureRegistries() {
    return insecureRegistries;
  }

  /**
   * Whether a credential for the registry at {@code origin} may go to {@code target} at all: over
   * HTTPS, yes; over plain HTTP only when {@code origin} is plain HTTP too (no downgrade) and the
   * target host could be a registry spoken to over plain HTTP.
   */
  public boolean mayCarryCredential(URI target, URI origin) {
    if ("https".equalsIgnoreCase(target.getScheme())) {
      return true;
    }
    if (!"http".equalsIgnoreCase(target.getScheme())
        || !"http".equalsIgnoreCase(origin.getScheme())) {
      return false;
    }
    String authority = target.getRawAuthority();
    return authority != null && RegistryEndpoints.plainHttp(authority, insecureRegistries);
  }

  /**
   * Sends the request and follows its redirects by this policy. A credential that may not go to the
   * first URI is not sent: the request goes without its {@code Authorization} header, or not at all
   * when its body holds the credential (an answer of status 0 then says why).
   *
   * @throws IOException no answer: refused, reset, timed out
   */
  public Answer send(Outgoing request) throws IOException, InterruptedException {
    Outgoing current = request;
    String withheld = null;
    if (request.carriesCredential() && !mayCarryCredential(request.uri(), request.origin())) {
      withheld =
          request.uri().getScheme()
              + " to "
              + request.uri().getHost()
              + " for a registry reached over "
              + request.origin().getScheme()
              + ": the credential was not sent there";
      if (request.formHoldsCredential()) {
        return new Answer(
            0, HttpHeaders.of(Map.of(), (a, b) -> true), "", request.uri(), withheld, false);
      }
      current = request.to(request.uri(), request.method(), true, false);
    }
    for (int hop = 0; ; hop++) {
      HttpResponse<String> response = exchange(current);
      Optional<String> location = response.headers().firstValue("Location");
      if (!isRedirect(response.statusCode()) || location.isEmpty()) {
        return new Answer(
            response.statusCode(),
            response.headers(),
            body(response),
            current.uri(),
            withheld,
            sameOrigin(current.uri(), request.origin()));
      }
      URI next;
      try {
        next = current.uri().resolve(location.get().strip());
      } catch (IllegalArgumentException malformed) {
        return stopped(response, current, "its Location is not a URI");
      }
      String scheme = next.getScheme() == null ? "" : next.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || next.getHost() == null) {
        return stopped(response, current, "its Location " + next + " is not an HTTP URL");
      }
      if ("https".equalsIgnoreCase(current.uri().getScheme()) && scheme.equals("http")) {
        return stopped(response, current, "it leads from HTTPS to plain HTTP " + next.getHost());
      }
      if (hop >= MAX_REDIRECTS) {
        return stopped(response, current, "more than " + MAX_REDIRECTS + " redirects");
      }
      boolean sameOrigin = sameOrigin(current.uri(), next);
      boolean keepBody = response.statusCode() == 307 || response.statusCode() == 308;
      if (!sameOrigin && keepBody && current.formHoldsCredential()) {
        return stopped(
            response,
            current,
            "it leads to another host, "
                + next.getHost()
                + ", and the credential is in the body: it was not sent there");
      }
      String method = keepBody || current.method().equals("HEAD") ? current.method() : "GET";
      boolean keepCredential = sameOrigin && current.authorization() != null;
      if (!sameOrigin && current.carriesCredential()) {
        withheld =
            "redirected to another host, "
                + next.getHost()
                + (next.getPort() < 0 ? "" : ":" + next.getPort())
                + ": the credential was not sent there";
      }
      current = current.to(next, method, keepBody, keepCredential);
    }
  }

  private HttpResponse<String> exchange(Outgoing request) throws IOException, InterruptedException {
    HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri()).timeout(timeout);
    request.headers().forEach(builder::header);
    if (request.authorization() != null) {
      builder.header("Authorization", request.authorization());
    }
    if (request.form() != null && request.method().equals("POST")) {
      builder
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString(request.form()));
    } else {
      builder.method(request.method(), HttpRequest.BodyPublishers.noBody());
    }
    CompletableFuture<HttpResponse<String>> answer =
        http.sendAsync(builder.build(), LimitedBody.handler(MAX_BODY_BYTES));
    try {
      // The client's own timeout ends at the headers: a body that trickles would not end.
      return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException late) {
      answer.cancel(true);
      throw new HttpTimeoutException("no whole answer within " + timeout);
    } catch (InterruptedException interrupted) {
      answer.cancel(true);
      throw interrupted;
    } catch (ExecutionException failed) {
      Throwable cause = failed.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(cause == null ? "failed" : cause.getClass().getSimpleName());
    }
  }

  private static Answer stopped(HttpResponse<String> response, Outgoing at, String why) {
    return new Answer(
        response.statusCode(),
        response.headers(),
        body(response),
        at.uri(),
        "a redirect not followed: " + why,
        sameOrigin(at.uri(), at.origin()));
  }

  private static String body(HttpResponse<String> response) {
    return response.body() == null ? "" : response.body();
  }

  private static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  static boolean sameOrigin(URI a, URI b) {
    return a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost().equalsIgnoreCase(b.getHost())
        && port(a) == port(b);
  }

  private static int port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }
}
