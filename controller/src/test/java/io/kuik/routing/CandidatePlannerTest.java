package io.kuik.routing;

import static io.kuik.routing.Fixtures.alternative;
import static io.kuik.routing.Fixtures.group;
import static io.kuik.routing.Fixtures.image;
import static io.kuik.routing.Fixtures.images;
import static io.kuik.routing.Fixtures.mirror;
import static io.kuik.routing.Fixtures.pod;
import static io.kuik.routing.Fixtures.repository;
import static io.kuik.routing.Fixtures.selector;
import static io.kuik.routing.Fixtures.withSelectors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingResource;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CandidatePlannerTest {

  private static final String NGINX = "docker.io/library/nginx:1.27";

  private static List<String> plan(String original, RoutingResource... resources) {
    RoutingIndex index = RoutingIndex.of(Arrays.asList(resources));
    return images(
        CandidatePlanner.candidates(index, index.covering(image(original)), image(original)));
  }

  @ParameterizedTest(name = "if the mirror is {0} and the alternative {1}, expect {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "Always    | Always    | mirror, alternative, original",
        "Always    | OnFailure | mirror, original, alternative",
        "OnFailure | Always    | alternative, original, mirror",
        "OnFailure | OnFailure | original, alternative, mirror",
      })
  void ordersMirrorAndAlternativeByTheirPolicies(
      String mirrorPolicy, String alternativePolicy, String expectedOrder) {
    RoutingResource mirror =
        mirror("m", RewritePolicy.parse(mirrorPolicy), "registry.example.com/mirror/");
    RoutingResource alternative =
        alternative(
            "a",
            RewritePolicy.parse(alternativePolicy),
            repository(0, "docker.io/library/nginx"),
            repository(1, "quay.io/acme/nginx"));

    List<String> candidates = plan("nginx:1.27", mirror, alternative);

    Map<String, String> byRole =
        Map.of(
            "mirror", "ImageMirror/m registry.example.com/mirror/docker.io/library/nginx:1.27",
            "alternative", "ImageAlternative/a quay.io/acme/nginx:1.27",
            "original", "original " + NGINX);
    List<String> expected = Arrays.stream(expectedOrder.split(", ")).map(byRole::get).toList();
    assertEquals(expected, candidates);
  }

  @Test
  void ordersTheFiveBandsAndResourcesByNameWithinABand() {
    List<String> candidates =
        plan(
            "nginx:1.27",
            mirror("z-on-failure", RewritePolicy.ON_FAILURE, "z.example.com/m"),
            mirror("a-on-failure", RewritePolicy.ON_FAILURE, "a.example.com/m"),
            alternative(
                "b-always",
                RewritePolicy.ALWAYS,
                group(0, "docker.io/library"),
                group(1, "b.example.com/lib")),
            alternative(
                "a-always",
                RewritePolicy.ALWAYS,
                group(0, "docker.io/library"),
                group(1, "a.example.com/lib")),
            mirror("y-always", RewritePolicy.ALWAYS, "y.example.com/m"),
            mirror("x-always", RewritePolicy.ALWAYS, "x.example.com/m"),
            alternative(
                "c-on-failure",
                RewritePolicy.ON_FAILURE,
                repository(0, "c.example.com/nginx"),
                repository(1, "docker.io/nginx"),
                repository(2, "d.example.com/nginx")));

    assertEquals(
        List.of(
            "ImageMirror/x-always x.example.com/m/docker.io/library/nginx:1.27",
            "ImageMirror/y-always y.example.com/m/docker.io/library/nginx:1.27",
            "ImageAlternative/a-always a.example.com/lib/nginx:1.27",
            "ImageAlternative/b-always b.example.com/lib/nginx:1.27",
            "original " + NGINX,
            "ImageAlternative/c-on-failure c.example.com/nginx:1.27",
            "ImageAlternative/c-on-failure d.example.com/nginx:1.27",
            "ImageMirror/a-on-failure a.example.com/m/docker.io/library/nginx:1.27",
            "ImageMirror/z-on-failure z.example.com/m/docker.io/library/nginx:1.27"),
        candidates);
  }

  @Test
  void dropsDuplicatesKeepingTheFirst() {
    List<String> candidates =
        plan(
            "quay.io/acme/foo@sha256:" + "a".repeat(64),
            alternative(
                "b",
                RewritePolicy.ON_FAILURE,
                repository(0, "quay.io/acme/foo"),
                repository(1, "registry.example.com/acme/foo"),
                repository(2, "registry.example.com/acme/foo")),
            alternative(
                "a",
                RewritePolicy.ON_FAILURE,
                repository(0, "quay.io/acme/foo"),
                repository(1, "registry.example.com/acme/foo"),
                repository(2, "ghcr.io/acme/foo")));

    String digest = "@sha256:" + "a".repeat(64);
    assertEquals(
        List.of(
            "original quay.io/acme/foo" + digest,
            "ImageAlternative/a registry.example.com/acme/foo" + digest,
            "ImageAlternative/a ghcr.io/acme/foo" + digest),
        candidates);
  }

  @Test
  void offersEveryEntryButTheOnesTheOriginalFallsUnder() {
    List<String> candidates =
        plan(
            "nginx",
            alternative(
                "hub",
                RewritePolicy.ON_FAILURE,
                repository(0, "mirror.gcr.io/library/nginx"),
                repository(1, "docker.io/nginx"),
                repository(2, "index.docker.io/library/nginx"),
                repository(3, "quay.io/library/nginx")));

    assertEquals(
        List.of(
            "original docker.io/library/nginx:latest",
            "ImageAlternative/hub mirror.gcr.io/library/nginx:latest",
            "ImageAlternative/hub quay.io/library/nginx:latest"),
        candidates);
  }

  @ParameterizedTest(name = "if a group docker.io/library sees {0}, expect it covered: {1}")
  @CsvSource({
    "nginx:1.27, true",
    "docker.io/library/nginx, true",
    "docker.io/library/a/b:1, false",
    "docker.io/library-x/nginx:1, false",
    "docker.io/acme/nginx:1, false",
  })
  void coversRepositoryGroupsOneLevelDeepOnly(String original, boolean covered) {
    RoutingResource groups =
        alternative(
            "groups",
            RewritePolicy.ON_FAILURE,
            group(0, "docker.io/library"),
            group(1, "mirror.gcr.io/library"));

    List<String> candidates = plan(original, groups);

    assertEquals(covered ? 2 : 1, candidates.size(), candidates.toString());
    if (covered) {
      String last = original.replaceAll("^.*/", "").replaceAll(":.*$", "");
      assertTrue(candidates.get(1).contains("mirror.gcr.io/library/" + last), candidates.get(1));
    }
  }

  @ParameterizedTest(name = "if the entry is {0} and the image {1}, expect it covered: {2}")
  @CsvSource({
    "quay.io/acme/foo, quay.io/acme/foo:1, true",
    "quay.io/acme/foo, quay.io/acme/foo-bar:1, false",
    "quay.io/acme/foo, quay.io/acme/foo/bar:1, false",
    "quay.io/acme/foo, quay.io/acme:1, false",
    "quay.io/acme/foo, quay.io:443/acme/foo:1, false",
  })
  void matchesRepositoriesByWholeSegments(String entry, String original, boolean covered) {
    RoutingResource resource =
        alternative(
            "r",
            RewritePolicy.ALWAYS,
            repository(0, entry),
            repository(1, "registry.example.com/other"));

    assertEquals(covered ? 2 : 1, plan(original, resource).size());
  }

  @Test
  void neverNestsAMirrorInsideItself() {
    RoutingResource mirror = mirror("m", RewritePolicy.ALWAYS, "registry.example.com/mirror/");

    assertEquals(
        List.of("original registry.example.com/mirror/docker.io/library/nginx:1"),
        plan("registry.example.com/mirror/docker.io/library/nginx:1", mirror));
    assertEquals(2, plan("registry.example.com/mirrors/nginx:1", mirror).size());
  }

  @Test
  void neverRoutesWithRewritePolicyNone() {
    RoutingResource copyOnly = mirror("copy", RewritePolicy.NONE, "registry.example.com/mirror");

    assertEquals(List.of("original " + NGINX), plan("nginx:1.27", copyOnly));
  }

  @Test
  void appliesThePodAndNamespaceSelectors() {
    RoutingResource mirror =
        withSelectors(
            mirror("m", RewritePolicy.ALWAYS, "registry.example.com/mirror"),
            selector("app", "web"),
            selector("tier", "prod"));
    RoutingIndex index = RoutingIndex.of(List.of(mirror));
    Pod web = pod("nginx:1.27");
    Pod other =
        new PodBuilder(web).editMetadata().withLabels(Map.of("app", "other")).endMetadata().build();

    assertEquals(1, CandidatePlanner.plan(index, web, Map.of("tier", "prod")).containers().size());
    assertEquals(0, CandidatePlanner.plan(index, web, Map.of("tier", "dev")).containers().size());
    assertEquals(
        0, CandidatePlanner.plan(index, other, Map.of("tier", "prod")).containers().size());
  }

  @Test
  void plansInitAndEphemeralContainersToo() {
    Pod pod =
        new PodBuilder(pod("nginx:1.27"))
            .editSpec()
            .addNewInitContainer()
            .withName("init")
            .withImage("busybox:1")
            .endInitContainer()
            .addNewEphemeralContainer()
            .withName("debug")
            .withImage("alpine:3")
            .endEphemeralContainer()
            .endSpec()
            .build();
    RoutingIndex index =
        RoutingIndex.of(List.of(mirror("m", RewritePolicy.ALWAYS, "registry.example.com/m")));

    PodPlan plan = CandidatePlanner.plan(index, pod, Map.of());

    assertEquals(
        List.of(
            "/spec/containers/0/image",
            "/spec/initContainers/0/image",
            "/spec/ephemeralContainers/0/image"),
        plan.containers().stream().map(c -> c.container().imagePointer()).toList());
  }

  @Test
  void skipsContainersThatNeverPull() {
    Pod pod =
        new PodBuilder(pod("nginx:1.27", "redis:7"))
            .editSpec()
            .editFirstContainer()
            .withImagePullPolicy("Never")
            .endContainer()
            .endSpec()
            .build();
    RoutingIndex index =
        RoutingIndex.of(List.of(mirror("m", RewritePolicy.ALWAYS, "registry.example.com/m")));

    PodPlan plan = CandidatePlanner.plan(index, pod, Map.of());

    assertEquals(List.of("c1"), plan.containers().stream().map(c -> c.container().name()).toList());
    assertEquals(
        Map.of("c0", "imagePullPolicy Never: the kubelet never pulls its image"),
        plan.notCovered());
  }

  @Test
  void leavesAPodAlreadyRoutedAlone() {
    Pod routed =
        new PodBuilder(pod("nginx:1.27"))
            .editMetadata()
            .addToAnnotations(RewriteAnnotations.ORIGINAL_IMAGES, "{\"c0\":\"nginx:1.26\"}")
            .endMetadata()
            .build();
    RoutingIndex index =
        RoutingIndex.of(List.of(mirror("m", RewritePolicy.ALWAYS, "registry.example.com/m")));

    PodPlan plan = CandidatePlanner.plan(index, routed, Map.of());

    assertEquals(
        "already routed: it carries " + RewriteAnnotations.ORIGINAL_IMAGES, plan.skipped());
    assertTrue(plan.containers().isEmpty());
    assertTrue(plan.notCovered().isEmpty(), "a skipped pod's containers are not judged one by one");
    assertNull(CandidatePlanner.plan(index, pod("nginx:1.27"), Map.of()).skipped());
  }

  @Test
  void leavesAnUnparsableImageAlone() {
    RoutingIndex index =
        RoutingIndex.of(List.of(mirror("m", RewritePolicy.ALWAYS, "registry.example.com/m")));

    PodPlan plan = CandidatePlanner.plan(index, pod("Not An Image", "nginx"), Map.of());

    assertEquals(1, plan.containers().size());
    assertTrue(plan.notCovered().get("c0").contains("Not An Image"), plan.notCovered().toString());
  }
}
