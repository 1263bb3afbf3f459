package io.kuik.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuthChallengeTest {

  @Test
  void readsDockerHubsBearerChallenge() {
    List<AuthChallenge> challenges =
        AuthChallenge.parse(
            "Bearer realm=\"https://auth.docker.io/token\",service=\"registry.docker.io\","
                + "scope=\"repository:library/nginx:pull\"");

    assertEquals(
        List.of(
            new AuthChallenge(
                "bearer",
                Map.of(
                    "realm", "https://auth.docker.io/token",
                    "service", "registry.docker.io",
                    "scope", "repository:library/nginx:pull"))),
        challenges);
  }

  @Test
  void readsSeveralChallengesAndPrefersBearer() {
    assertEquals(
        "https://r/token",
        AuthChallenge.select(List.of("Basic realm=\"x\", Bearer realm=\"https://r/token\""))
            .orElseThrow()
            .parameter("realm"));
    assertTrue(AuthChallenge.select(List.of("Basic realm=basic-realm")).orElseThrow().isBasic());
    assertTrue(AuthChallenge.select(List.of("Negotiate")).isEmpty());
  }

  @Test
  void unquotesEscapedValuesAndToleratesJunk() {
    assertEquals(
        "a\"b,c", AuthChallenge.parse("Bearer realm=\"a\\\"b,c\"").get(0).parameter("realm"));
    assertEquals(
        Map.of("realm", "x"), AuthChallenge.parse("BASIC  realm = x ,, ").get(0).parameters());
    assertTrue(AuthChallenge.parse("").isEmpty());
  }
}
