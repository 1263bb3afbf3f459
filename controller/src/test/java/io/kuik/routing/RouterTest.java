package io.kuik.routing;

import static io.kuik.routing.Fixtures.alternative;
import static io.kuik.routing.Fixtures.mirror;
import static io.kuik.routing.Fixtures.pod;
import static io.kuik.routing.Fixtures.repository;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kuik.model.Auth;
import io.kuik.model.PullSecretsOverride;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingResource;
import io.kuik.ports.RegistryProber.Availability;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RouterTest {

  private static final String NGINX = "docker.io/library/nginx:1.27";
  private static final String ALTERNATIVE = "quay.io/acme/nginx:1.27";

  private static RoutingDecision route(MapProber prober, Pod pod, RoutingResource... resources) {
    return route(prober, pod, Map.of(), resources);
  }

  private static RoutingDecision route(
      MapProber prober,
      Pod pod,
      Map<String, String> namespaceLabels,
      RoutingResource... resources) {
    return new Router(prober, name -> Optional.empty())
        .route(RoutingIndex.of(List.of(resources)), pod, namespaceLabels);
  }

  private static RoutingResource onFailure(Auth auth) {
    return alternative(
        "acme",
        RewritePolicy.ON_FAILURE,
        repository(0, "docker.io/library/nginx"),
        repository(1, "quay.io/acme/nginx", auth));
  }

  @ParameterizedTest(name = "if the original is {0}, expect the OnFailure alternative to win: {1}")
  @CsvSource({"AVAILABLE, false", "NOT_FOUND, true", "UNREACHABLE, true", "UNAUTHORIZED, true"})
  void letsOnFailureCandidatesWinOnlyWhenTheOriginalIsUnavailable(
      Availability original, boolean rewritten) {
    MapProber prober = new MapProber().answer(NGINX, original).available(ALTERNATIVE);

    RoutingDecision decision = route(prober, pod("nginx:1.27"), onFailure(null));

    assertEquals(rewritten, decision.changesPod());
    assertEquals(
        rewritten ? ALTERNATIVE : NGINX, decision.containers().get(0).chosen().image().toString());
  }

  @Test
  void letsAnAlwaysCandidateWinWhateverTheOriginal() {
    MapProber prober = new MapProber().available(NGINX, ALTERNATIVE);
    RoutingResource always =
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            repository(0, "docker.io/library/nginx"),
            repository(1, "quay.io/acme/nginx"));

    RoutingDecision decision = route(prober, pod("nginx:1.27"), always);

    assertEquals(ALTERNATIVE, decision.rewrites().get(0).chosen().image().toString());
    assertEquals(
        "served by ImageAlternative/acme (spec.alternatives[1], Always)",
        decision.rewrites().get(0).reason());
  }

  @Test
  void keepsAPrivateOriginalForAPodWithItsOwnPullSecrets() {
    MapProber prober =
        new MapProber().answer(NGINX, Availability.UNAUTHORIZED).available(ALTERNATIVE);
    Pod withSecret =
        new PodBuilder(pod("nginx:1.27")).editSpec().addNewImagePullSecret("own").endSpec().build();

    RoutingDecision decision = route(prober, withSecret, onFailure(null));

    assertFalse(decision.changesPod());
    assertTrue(decision.containers().get(0).chosen().isOriginal());
  }

  @Test
  void leavesTheContainerAsItIsWhenNothingAnswers() {
    MapProber prober =
        new MapProber()
            .answer(NGINX, Availability.UNREACHABLE)
            .answer(ALTERNATIVE, Availability.UNREACHABLE);

    RoutingDecision decision = route(prober, pod("nginx:1.27"), onFailure(null));

    assertFalse(decision.changesPod());
    assertNull(decision.containers().get(0).chosen());
    assertEquals(
        "no candidate available: " + NGINX + " unreachable; " + ALTERNATIVE + " unreachable",
        decision.containers().get(0).reason());
    assertTrue(PodPatch.operations(pod("nginx:1.27"), decision).isEmpty());
  }

  @Test
  void readsAShortAnswerAsStoppedAtTheFirstAvailable() {
    RegistryProberStub stopsEarly = new RegistryProberStub(List.of(Availability.AVAILABLE));
    RoutingResource always =
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            repository(0, "docker.io/library/nginx"),
            repository(1, "quay.io/acme/nginx"));

    RoutingDecision decision =
        new Router(stopsEarly, name -> Optional.empty())
            .route(RoutingIndex.of(List.of(always)), pod("nginx:1.27"), Map.of());

    assertEquals(ALTERNATIVE, decision.rewrites().get(0).chosen().image().toString());
  }

  @ParameterizedTest(name = "if the winning entry''s auth is {0}, expect a reference: {1}")
  @CsvSource({
    "secretRef injecting, true",
    "secretRef not injecting, false",
    "provider injecting, true",
    "provider not injecting, false",
    "none, false",
  })
  void addsTheReferenceOnlyForAnInjectingWinner(String auth, boolean referenced) {
    Auth written =
        switch (auth) {
          case "secretRef injecting" -> Auth.secretRef("acme-pull");
          case "secretRef not injecting" -> new Auth("acme-pull", null, false);
          case "provider injecting" -> new Auth(null, "ecr", true);
          case "provider not injecting" -> Auth.provider("ecr");
          default -> null;
        };
    MapProber prober = new MapProber().available(ALTERNATIVE);

    RoutingDecision decision = route(prober, pod("nginx:1.27"), onFailure(written));

    assertTrue(decision.changesPod());
    assertEquals(
        referenced ? List.of("kuik-inject-imagealternative-acme") : List.of(),
        decision.addedPullSecrets());
  }

  @Test
  void addsNoReferenceWhenTheOriginalWins() {
    MapProber prober = new MapProber().available(NGINX, ALTERNATIVE);

    RoutingDecision decision =
        route(prober, pod("nginx:1.27"), onFailure(Auth.secretRef("acme-pull")));

    assertEquals(List.of(), decision.addedPullSecrets());
  }

  @Test
  void addsOneReferencePerResourceThatRewroteAContainer() {
    RoutingResource mirror =
        mirror(
            "prod-mirror",
            RewritePolicy.ALWAYS,
            "registry.example.com/mirror/",
            Auth.secretRef("mirror-read"));
    RoutingResource redis =
        alternative(
            "redis",
            RewritePolicy.ON_FAILURE,
            repository(0, "docker.io/library/redis"),
            repository(1, "quay.io/acme/redis", Auth.secretRef("quay-pull")));
    MapProber prober =
        new MapProber()
            .available(
                "registry.example.com/mirror/docker.io/library/nginx:1.27",
                "registry.example.com/mirror/docker.io/library/busybox:1",
                "quay.io/acme/redis:7")
            .answer("registry.example.com/mirror/docker.io/library/redis:7", Availability.NOT_FOUND)
            .answer("redis:7", Availability.UNREACHABLE);

    RoutingDecision decision =
        route(prober, pod("nginx:1.27", "redis:7", "busybox:1"), mirror, redis);

    assertEquals(3, decision.rewrites().size());
    assertEquals(
        List.of("kuik-inject-imagemirror-prod-mirror", "kuik-inject-imagealternative-redis"),
        decision.addedPullSecrets());
  }

  @Test
  void neverAddsAReferenceThePodAlreadyHas() {
    Pod pod =
        new PodBuilder(pod("nginx:1.27"))
            .editSpec()
            .addNewImagePullSecret("kuik-inject-imagealternative-acme")
            .endSpec()
            .build();
    MapProber prober = new MapProber().available(ALTERNATIVE);

    RoutingDecision decision = route(prober, pod, onFailure(Auth.secretRef("acme-pull")));

    assertTrue(decision.changesPod());
    assertEquals(List.of(), decision.addedPullSecrets());
  }

  @Test
  void rewritesButAddsNoReferenceWhereTheNamespaceOverrideIsFalse() {
    MapProber prober = new MapProber().available(ALTERNATIVE);
    Map<String, String> optedOut = Map.of(PullSecretsOverride.LABEL, "false");

    RoutingDecision decision =
        route(prober, pod("nginx:1.27"), optedOut, onFailure(Auth.secretRef("acme-pull")));

    assertTrue(decision.changesPod());
    assertEquals(List.of(), decision.addedPullSecrets());
    assertEquals(
        List.of("kuik-inject-imagealternative-acme"),
        route(
                prober,
                pod("nginx:1.27"),
                Map.of(PullSecretsOverride.LABEL, "true"),
                onFailure(Auth.secretRef("acme-pull")))
            .addedPullSecrets());
  }

  @Test
  void leavesAPodAlreadyRoutedUntouchedWithoutProbing() {
    Pod routed =
        new PodBuilder(pod("quay.io/acme/nginx:1.27"))
            .editMetadata()
            .addToAnnotations(RewriteAnnotations.ORIGINAL_IMAGES, "{\"c0\":\"nginx:1.27\"}")
            .endMetadata()
            .build();
    MapProber prober = new MapProber().available(ALTERNATIVE);

    RoutingDecision decision = route(prober, routed, onFailure(Auth.secretRef("acme-pull")));

    assertFalse(decision.changesPod());
    assertTrue(prober.asked.isEmpty());
    assertTrue(PodPatch.operations(routed, decision).isEmpty());
  }

  @Test
  void skipsNeverPullContainersWithoutProbingThem() {
    Pod pod =
        new PodBuilder(pod("nginx:1.27"))
            .editSpec()
            .editFirstContainer()
            .withImagePullPolicy("Never")
            .endContainer()
            .endSpec()
            .build();
    MapProber prober = new MapProber().available(ALTERNATIVE);

    RoutingDecision decision = route(prober, pod, onFailure(null));

    assertFalse(decision.changesPod());
    assertTrue(prober.asked.isEmpty());
  }

  @Test
  void probesTheOriginalAnonymously() {
    MapProber prober = new MapProber();

    route(prober, pod("nginx:1.27"), onFailure(Auth.secretRef("acme-pull")));

    assertEquals(NGINX, prober.asked.get(0).image().toString());
    assertNull(prober.asked.get(0).credential());
  }

  /** A prober that gives the same answer to every container. */
  private record RegistryProberStub(List<Availability> answer)
      implements io.kuik.ports.RegistryProber {
    @Override
    public List<Availability> probe(List<Probe> candidates) {
      return answer;
    }
  }
}
