package io.kuik.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The small pieces of the registry's wire, without a server: what counts as the same origin (the
 * one the credential is for), which answers are redirects, how a challenge header is read at its
 * edges, and the bound on an answer's body.
 */
class RegistryWireTest {

  @ParameterizedTest(name = "{0} and {1}: {2}")
  @CsvSource({
    "https://quay.io/v2/, https://quay.io:443/token, true",
    "http://127.0.0.1/v2/, http://127.0.0.1:80/v2/, true",
    "https://quay.io/v2/, https://quay.io:80/v2/, false",
    "https://quay.io:0/v2/, https://quay.io/v2/, false",
    "https://quay.io/v2/, http://quay.io:443/v2/, false",
    "https://QUAY.io/v2/, HTTPS://quay.IO/v2/, true",
  })
  void theSameOriginIsTheSameSchemeHostAndPortWithTheSchemesDefault(
      String a, String b, boolean same) {
    assertEquals(same, RegistryHttp.sameOrigin(URI.create(a), URI.create(b)));
    assertEquals(same, RegistryHttp.sameOrigin(URI.create(b), URI.create(a)));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({"299, false", "300, true", "302, true", "399, true", "400, false"})
  void anAnswerIsARedirectFrom300To399(int status, boolean redirect) {
    HttpHeaders none = HttpHeaders.of(Map.of(), (name, value) -> true);
    URI at = URI.create("https://quay.io/v2/");

    assertEquals(redirect, new RegistryHttp.Answer(status, none, "", at, null, true).redirect());
  }

  @Test
  void aSpaceBeforeTheCommaKeepsTheNextParameterInItsChallenge() {
    List<AuthChallenge> challenges =
        AuthChallenge.parse("Bearer realm=\"https://auth.example/token\" , service=\"quay.io\"");

    assertEquals(1, challenges.size(), challenges.toString());
    assertEquals(
        Map.of("realm", "https://auth.example/token", "service", "quay.io"),
        challenges.get(0).parameters());
  }

  @Test
  void aQuotedValueCutShortEndsAtTheHeadersEnd() {
    assertEquals(
        "https://auth",
        AuthChallenge.parse("Bearer realm=\"https://auth").get(0).parameter("realm"));
    assertEquals("a\\", AuthChallenge.parse("Bearer realm=\"a\\").get(0).parameter("realm"));
  }

  @Test
  void aBodyIsReadUpToItsLimitAcrossBuffersAndTheRestIsCancelled() {
    Recorded subscription = new Recorded();
    HttpResponse.BodySubscriber<String> body = LimitedBody.handler(8).apply(null);
    body.onSubscribe(subscription);

    body.onNext(List.of(ascii("abc")));
    assertFalse(subscription.cancelled, "under the limit: read on");
    assertFalse(body.getBody().toCompletableFuture().isDone());
    body.onNext(List.of(ascii("defghijk")));

    assertTrue(subscription.cancelled, "the rest is not read");
    assertEquals("abcdefgh", body.getBody().toCompletableFuture().join());
    assertEquals(2, subscription.requested, "one buffer at a time, none after the limit");
  }

  @Test
  void aBodyOfExactlyTheLimitIsWholeAndTheExchangeIsClosed() {
    Recorded subscription = new Recorded();
    HttpResponse.BodySubscriber<String> body = LimitedBody.handler(3).apply(null);
    body.onSubscribe(subscription);

    body.onNext(List.of(ascii("abc")));

    assertTrue(subscription.cancelled);
    assertEquals("abc", body.getBody().toCompletableFuture().getNow(null));
  }

  private static ByteBuffer ascii(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
  }

  private static final class Recorded implements Flow.Subscription {
    long requested;
    boolean cancelled;

    @Override
    public void request(long n) {
      requested += n;
    }

    @Override
    public void cancel() {
      cancelled = true;
    }
  }
}
