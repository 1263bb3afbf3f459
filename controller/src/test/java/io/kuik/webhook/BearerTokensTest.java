package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.model.RegistryCredential;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The token cache alone, on a clock the test moves. */
class BearerTokensTest {

  /** A start below zero, as {@link System#nanoTime()} may be. */
  private final AtomicLong clock = new AtomicLong(-Duration.ofHours(1).toNanos());

  private final BearerTokens tokens = new BearerTokens(clock::get);

  private static BearerTokens.Key key(String scope) {
    return new BearerTokens.Key(
        "https://auth.example.com/token",
        "registry.example.com",
        scope,
        RegistryCredential.basic("robot", "secret"));
  }

  private static final BearerTokens.Key PULL = key("repository:library/nginx:pull");

  private void later(Duration elapsed) {
    clock.addAndGet(elapsed.toNanos());
  }

  @Test
  void keepsATokenForNinetyPercentOfItsLifetimeAndNotOneNanosecondMore() {
    tokens.remember(PULL, "t1", 100);

    later(Duration.ofSeconds(90).minusNanos(1));
    assertEquals(Optional.of("t1"), tokens.cached(PULL));
    later(Duration.ofNanos(1));
    assertEquals(Optional.empty(), tokens.cached(PULL));
  }

  @Test
  void givesATokenWithoutALifetimeTheSpecsSixtySeconds() {
    tokens.remember(PULL, "zero", 0);
    tokens.remember(key("negative"), "negative", -5);

    later(Duration.ofSeconds(54).minusNanos(1));
    assertEquals(Optional.of("zero"), tokens.cached(PULL));
    assertEquals(Optional.of("negative"), tokens.cached(key("negative")));
    later(Duration.ofNanos(1));
    assertEquals(Optional.empty(), tokens.cached(PULL));
    assertEquals(Optional.empty(), tokens.cached(key("negative")));
  }

  @Test
  void givesATokenOfOneSecondItsOwnLifetime() {
    tokens.remember(PULL, "short", 1);

    later(Duration.ofMillis(900).minusNanos(1));
    assertEquals(Optional.of("short"), tokens.cached(PULL));
    later(Duration.ofNanos(1));
    assertEquals(Optional.empty(), tokens.cached(PULL));
  }

  @Test
  void keepsTokensOfDifferentKeysApartAndForgetsOneOnDemand() {
    BearerTokens.Key push = key("repository:library/nginx:pull,push");
    tokens.remember(PULL, "pull", 300);
    tokens.remember(push, "push", 300);

    assertEquals(Optional.of("pull"), tokens.cached(PULL));
    assertEquals(Optional.of("push"), tokens.cached(push));

    tokens.forget(PULL);

    assertEquals(Optional.empty(), tokens.cached(PULL));
    assertEquals(Optional.of("push"), tokens.cached(push));
  }

  @Test
  void dropsEveryTokenBeforeHoldingMoreThanItsBound() {
    for (int i = 0; i < BearerTokens.MAX_TOKENS - 1; i++) {
      tokens.remember(key("scope-" + i), "token-" + i, 300);
    }
    tokens.remember(PULL, "last", 300);

    assertEquals(Optional.of("token-0"), tokens.cached(key("scope-0")));
    assertEquals(Optional.of("last"), tokens.cached(PULL));

    tokens.remember(key("one more"), "over", 300);

    assertEquals(Optional.empty(), tokens.cached(key("scope-0")));
    assertEquals(Optional.empty(), tokens.cached(PULL));
    assertEquals(Optional.of("over"), tokens.cached(key("one more")));
  }
}
