package io.kuik.routing;

import static io.kuik.routing.Fixtures.alternative;
import static io.kuik.routing.Fixtures.mirror;
import static io.kuik.routing.Fixtures.pod;
import static io.kuik.routing.Fixtures.repository;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.zjsonpatch.JsonPatch;
import io.kuik.model.Auth;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class PodPatchTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static final RoutingResource MIRROR =
      mirror(
          "prod-mirror",
          RewritePolicy.ALWAYS,
          "registry.example.com/mirror/",
          Auth.secretRef("mirror-read"));

  /** Routes {@code pod}, applies the patch to its JSON, and reads the result back. */
  private static Pod routedAndPatched(Pod pod, MapProber prober) {
    RoutingDecision decision =
        new Router(prober, name -> Optional.empty())
            .route(RoutingIndex.of(List.of(MIRROR)), pod, Map.of());
    String patch = PodPatch.toJson(PodPatch.operations(pod, decision));
    JsonNode patched = JsonPatch.apply(JSON.readTree(patch), JSON.valueToTree(pod));
    return JSON.treeToValue(patched, Pod.class);
  }

  @Test
  void rewritesTheImagesAndWritesTheThreeAnnotations() {
    MapProber prober =
        new MapProber().available("registry.example.com/mirror/docker.io/library/nginx:1.27");

    Pod patched = routedAndPatched(pod("nginx:1.27", "redis:7"), prober);

    assertEquals(
        "registry.example.com/mirror/docker.io/library/nginx:1.27",
        patched.getSpec().getContainers().get(0).getImage());
    assertEquals("redis:7", patched.getSpec().getContainers().get(1).getImage());
    Map<String, String> annotations = patched.getMetadata().getAnnotations();
    assertEquals("{\"c0\":\"nginx:1.27\"}", annotations.get(RewriteAnnotations.ORIGINAL_IMAGES));
    assertEquals(
        "{\"c0\":\"ImageMirror/prod-mirror\"}", annotations.get(RewriteAnnotations.REWRITTEN_BY));
    assertEquals(
        Map.of("c0", "served by ImageMirror/prod-mirror (spec.destination, Always)"),
        RewriteAnnotations.readMap(annotations, RewriteAnnotations.REASON));
    assertEquals(
        List.of(new LocalObjectReference("kuik-inject-imagemirror-prod-mirror")),
        patched.getSpec().getImagePullSecrets());
    assertEquals(
        Map.of("app", "web", "kuik.enix.io/images-rewritten", "true"),
        patched.getMetadata().getLabels());
  }

  @Test
  void labelsNoPodItLeavesAlone() {
    Pod pod = pod("redis:7");

    RoutingDecision decision =
        new Router(new MapProber(), name -> Optional.empty())
            .route(RoutingIndex.of(List.of(MIRROR)), pod, Map.of());

    assertEquals(List.of(), PodPatch.operations(pod, decision));
  }

  @Test
  void keepsThePodsOwnAnnotationsAndPullSecrets() {
    Pod pod =
        new PodBuilder(pod("nginx:1.27"))
            .editMetadata()
            .addToAnnotations("team", "a/b~c")
            .addToLabels("tier", "a")
            .endMetadata()
            .editSpec()
            .addNewImagePullSecret("own")
            .endSpec()
            .build();
    MapProber prober =
        new MapProber().available("registry.example.com/mirror/docker.io/library/nginx:1.27");

    Pod patched = routedAndPatched(pod, prober);

    assertEquals("a/b~c", patched.getMetadata().getAnnotations().get("team"));
    assertEquals(
        Map.of("app", "web", "tier", "a", RewriteAnnotations.REWRITTEN_LABEL, "true"),
        patched.getMetadata().getLabels());
    assertEquals(
        List.of(
            new LocalObjectReference("own"),
            new LocalObjectReference("kuik-inject-imagemirror-prod-mirror")),
        patched.getSpec().getImagePullSecrets());
  }

  @Test
  void patchesInitAndEphemeralContainersAtTheirOwnPaths() {
    Pod pod =
        new PodBuilder(pod("nginx:1.27"))
            .editSpec()
            .editFirstContainer()
            .withImagePullPolicy("Never")
            .endContainer()
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
    MapProber prober =
        new MapProber()
            .available(
                "registry.example.com/mirror/docker.io/library/busybox:1",
                "registry.example.com/mirror/docker.io/library/alpine:3");

    Pod patched = routedAndPatched(pod, prober);

    assertEquals("nginx:1.27", patched.getSpec().getContainers().get(0).getImage());
    assertEquals(
        "registry.example.com/mirror/docker.io/library/busybox:1",
        patched.getSpec().getInitContainers().get(0).getImage());
    assertEquals(
        "registry.example.com/mirror/docker.io/library/alpine:3",
        patched.getSpec().getEphemeralContainers().get(0).getImage());
    assertEquals(
        "{\"init\":\"busybox:1\",\"debug\":\"alpine:3\"}",
        patched.getMetadata().getAnnotations().get(RewriteAnnotations.ORIGINAL_IMAGES));
  }

  @Test
  void writesNoPullSecretsWhenNoWinnerInjects() {
    RoutingResource plain =
        alternative(
            "plain",
            RewritePolicy.ALWAYS,
            repository(0, "docker.io/library/nginx"),
            repository(1, "quay.io/acme/nginx"));
    MapProber prober = new MapProber().available("quay.io/acme/nginx:1.27");
    Pod pod = pod("nginx:1.27");

    RoutingDecision decision =
        new Router(prober, name -> Optional.empty())
            .route(RoutingIndex.of(List.of(plain)), pod, Map.of());

    assertEquals(
        List.of("/spec/containers/0/image", "/metadata/labels", "/metadata/annotations"),
        PodPatch.operations(pod, decision).stream().map(PatchOperation::path).toList());
  }
}
