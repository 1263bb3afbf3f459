package io.kuik.webhook;

import static io.kuik.webhook.AdmissionFixtures.MIRROR_HAS_EVERYTHING;
import static io.kuik.webhook.AdmissionFixtures.handler;
import static io.kuik.webhook.AdmissionFixtures.recorded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GroupVersionKindBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.zjsonpatch.JsonPatch;
import io.kuik.LogLines;
import io.kuik.model.ServedNamespaces;
import io.kuik.ports.RegistryProber;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class AdmissionHandlerTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static JsonNode answer(AdmissionHandler handler, String file) {
    return JSON.readTree(handler.handle(recorded(file)));
  }

  /** The request's object with the response's patch applied, as the API server would. */
  static JsonNode patched(String file, JsonNode answer) {
    JsonNode object = JSON.readTree(recorded(file)).get("request").get("object");
    String patch =
        new String(
            Base64.getDecoder().decode(answer.get("response").get("patch").asString()),
            StandardCharsets.UTF_8);
    return JsonPatch.apply(JSON.readTree(patch), object);
  }

  /** What the handler logs while answering {@code file}, at every level down to DEBUG. */
  private static List<LogRecord> logged(String file) {
    return logged(handler(MIRROR_HAS_EVERYTHING), recorded(file));
  }

  private static List<LogRecord> logged(AdmissionHandler handler, byte[] body) {
    return logged(() -> handler.handle(body));
  }

  private static List<LogRecord> logged(Runnable answering) {
    // FINE: the tests' logging.properties says WARNING
    try (LogLines log = LogLines.of(AdmissionHandler.class, Level.FINE)) {
      answering.run();
      return log.records();
    }
  }

  /** A recorded review with one change, as bytes to hand to the handler. */
  private static byte[] edited(String file, Consumer<ObjectNode> edit) {
    ObjectNode review = (ObjectNode) JSON.readTree(recorded(file));
    edit.accept(review);
    return JSON.writeValueAsBytes(review);
  }

  /** Each logged line as its pattern and its parameters after the pod. */
  private static List<String> lines(List<LogRecord> records) {
    return records.stream()
        .map(
            r ->
                r.getMessage()
                    + " "
                    + (r.getParameters() == null
                        ? List.of()
                        : List.of(r.getParameters()).subList(1, r.getParameters().length)))
        .toList();
  }

  @Test
  void aReplicaSetPodIsLoggedByItsGenerateNameAsAnAdmittedPod() {
    List<Object> parameters = new ArrayList<>();
    logged("pod-create.json").stream()
        .filter(r -> r.getParameters() != null)
        .forEach(r -> parameters.addAll(List.of(r.getParameters())));

    String namespace =
        JSON.readTree(recorded("pod-create.json")).at("/request/namespace").asString();
    assertTrue(
        parameters.contains(new AdmittedPod(namespace, "web-7c5ddbdf54-*")), parameters.toString());
  }

  @Test
  void theLogSaysPerContainerWhatWasChosenAndWhyAPodWasLeftAlone() {
    List<String> routed = lines(logged("pod-create.json"));
    List<String> alone = lines(logged("pod-already-routed.json"));

    assertTrue(
        routed.stream()
            .anyMatch(
                l ->
                    l.startsWith(
                        "admission {0} container={1} image={2} chosen={3} reason={4} [nginx, nginx:1.27, registry.example.com/mirror/docker.io/library/nginx:1.27")),
        "" + routed);
    assertTrue(
        routed.stream()
            .anyMatch(
                l ->
                    l.startsWith(
                        "admission {0} container={1} skipped: {2} [local-tool, imagePullPolicy Never")),
        "a container no resource covers, at DEBUG: " + routed);
    assertTrue(
        routed.contains(
            "admission {0}: imagePullSecrets += {1} [[kuik-inject-imagemirror-prod-mirror]]"),
        "" + routed);
    assertTrue(
        alone.stream().anyMatch(l -> l.startsWith("admission {0}: left alone, {1} [")), "" + alone);
    assertTrue(
        alone.stream().noneMatch(l -> l.contains("container=") || l.contains("imagePullSecrets")),
        "" + alone);
  }

  @Test
  void whileGatingIsOffNoPodIsGated() {
    JsonNode answer = answer(handler(MIRROR_HAS_EVERYTHING), "pod-create.json");

    String patch =
        new String(
            Base64.getDecoder().decode(answer.at("/response/patch").asString()),
            StandardCharsets.UTF_8);
    assertTrue(patch.contains("kuik-inject-imagemirror-prod-mirror"), patch);
    assertTrue(!patch.contains("schedulingGates"), patch);
  }

  @Test
  void answersARecordedPodCreationWithAPatchTheApiServerCanApply() {
    JsonNode answer = answer(handler(MIRROR_HAS_EVERYTHING), "pod-create.json");

    assertEquals("admission.k8s.io/v1", answer.get("apiVersion").asString());
    assertEquals("AdmissionReview", answer.get("kind").asString());
    JsonNode response = answer.get("response");
    assertEquals("0df28fbd-5f5f-4b5e-9d3f-2f3c1c9b8a01", response.get("uid").asString());
    assertTrue(response.get("allowed").asBoolean());
    assertEquals("JSONPatch", response.get("patchType").asString());

    JsonNode pod = patched("pod-create.json", answer);
    assertEquals(
        "registry.example.com/mirror/docker.io/library/nginx:1.27",
        pod.at("/spec/containers/0/image").asString());
    assertEquals("tool:dev", pod.at("/spec/containers/1/image").asString());
    assertEquals(
        "registry.example.com/mirror/quay.io/acme/migrate:2.1",
        pod.at("/spec/initContainers/0/image").asString());
    JsonNode annotations = pod.at("/metadata/annotations");
    assertEquals(
        "{\"nginx\":\"nginx:1.27\",\"migrate\":\"quay.io/acme/migrate:2.1\"}",
        annotations.get("kuik.enix.io/original-images").asString());
    assertEquals(
        "{\"nginx\":\"ImageMirror/prod-mirror\",\"migrate\":\"ImageMirror/prod-mirror\"}",
        annotations.get("kuik.enix.io/rewritten-by").asString());
    assertTrue(
        annotations.get("kuik.enix.io/reason").asString().contains("ImageMirror/prod-mirror"));
    assertEquals(
        "[{\"name\":\"kuik-inject-imagemirror-prod-mirror\"}]",
        pod.at("/spec/imagePullSecrets").toString());
    // Everything else is as submitted.
    assertEquals("web-7c5ddbdf54", pod.at("/metadata/ownerReferences/0/name").asString());
    assertEquals(30, pod.at("/spec/terminationGracePeriodSeconds").asInt());
  }

  @ParameterizedTest(name = "if the body is {0}, expect allowed unchanged with uid \"{1}\"")
  @CsvSource({
    "pod-already-routed.json, 5e5e-routed",
    "pod-unknown-namespace.json, 3d3d-unknown-ns",
    "pod-update.json, 6c1d7e0a-update",
    "pod-ephemeral-containers.json, a3e9-ephemeral",
    "configmap-create.json, 77aa-configmap",
    "not-a-pod.json, 9f3b-not-a-pod",
    "object-not-an-object.json, 2b7c-object-string",
    "missing-request.json, ''",
    "wrong-kind.json, ''",
    "truncated.json, ''",
    "not-json.txt, ''",
  })
  void allowsAnythingItCannotRouteUnchanged(String file, String uid) {
    JsonNode response = answer(handler(MIRROR_HAS_EVERYTHING), file).get("response");

    assertTrue(response.get("allowed").asBoolean());
    assertEquals(uid, response.get("uid").asString());
    assertNull(response.get("patch"));
    assertNull(response.get("patchType"));
  }

  @ParameterizedTest(name = "a pod of team-a is admitted as it came where kuik {0}")
  @CsvSource({
    "is installed in team-a, team-a, ''",
    "leaves team-a out (webhook.excludedNamespaces), kuik-system, 'legacy,team-a'",
  })
  void aPodOfANamespaceKuikDoesNotServeIsAdmittedAsItCame(
      String where, String installNamespace, String excluded) {
    var served = ServedNamespaces.parse(installNamespace, excluded);

    JsonNode response =
        answer(AdmissionFixtures.handler(MIRROR_HAS_EVERYTHING, served), "pod-create.json")
            .get("response");

    assertTrue(response.get("allowed").asBoolean());
    assertNull(response.get("patch"), where);
    JsonNode routed =
        answer(
                AdmissionFixtures.handler(
                    MIRROR_HAS_EVERYTHING, ServedNamespaces.parse(installNamespace, "legacy")),
                "pod-create.json")
            .get("response");
    assertEquals(
        installNamespace.equals("team-a"),
        routed.get("patch") == null,
        "served otherwise, and routed there");
  }

  @Test
  void allowsThePodUnchangedWhenRoutingFails() {
    RegistryProber broken =
        candidates -> {
          throw new IllegalStateException("prober bug");
        };

    JsonNode response = answer(handler(broken), "pod-create.json").get("response");

    assertTrue(response.get("allowed").asBoolean());
    assertEquals("0df28fbd-5f5f-4b5e-9d3f-2f3c1c9b8a01", response.get("uid").asString());
    assertNull(response.get("patch"));
  }

  @Test
  void allowsThePodUnchangedWhenNothingAnswers() {
    RegistryProber silent =
        candidates ->
            candidates.stream().map(c -> RegistryProber.Availability.UNREACHABLE).toList();

    JsonNode response = answer(handler(silent), "pod-create.json").get("response");

    assertTrue(response.get("allowed").asBoolean());
    assertNull(response.get("patch"));
  }

  @Test
  void answersAnEmptyBody() {
    JsonNode response =
        JSON.readTree(handler(MIRROR_HAS_EVERYTHING).handle(new byte[0])).get("response");

    assertTrue(response.get("allowed").asBoolean());
  }

  @Test
  void aGatedPodIsLoggedAsGatedAndAnUngatedOneIsNot() {
    String gated = "admission {0}: gated until its pull secret is in place []";

    assertTrue(
        lines(
                logged(
                    AdmissionFixtures.gatingHandler(MIRROR_HAS_EVERYTHING),
                    recorded("pod-create.json")))
            .contains(gated));
    assertTrue(lines(logged("pod-create.json")).stream().noneMatch(gated::equals));
  }

  @Test
  void aRequestThatIsNotAPodCreationIsLoggedWithItsOperationAndKindOrAQuestionMark() {
    List<LogRecord> update = logged("pod-update.json");
    List<LogRecord> kindless =
        logged(
            handler(MIRROR_HAS_EVERYTHING),
            edited(
                "pod-create.json", review -> ((ObjectNode) review.get("request")).remove("kind")));

    String pattern = "admission {0} {1} {2}: not a pod creation, allowed unchanged";
    assertEquals(
        List.of("UPDATE", "Pod"),
        update.stream()
            .filter(r -> r.getMessage().equals(pattern))
            .map(r -> List.of(r.getParameters()).subList(0, 2))
            .findFirst()
            .orElseThrow());
    assertEquals(
        List.of("CREATE", "?"),
        kindless.stream()
            .filter(r -> r.getMessage().equals(pattern))
            .map(r -> List.of(r.getParameters()).subList(0, 2))
            .findFirst()
            .orElseThrow());
  }

  @ParameterizedTest(name = "a pod creation whose {0} is {1} is not a core pod creation: unchanged")
  @CsvSource({
    "/request/kind, group, example.com",
    "/request/kind, version, v2",
    "/request/kind, kind, PodTemplate",
    "/request, subResource, status",
    "/request, operation, CONNECT",
  })
  void onlyTheCreationOfACorePodIsRouted(String at, String field, String value) {
    byte[] body =
        edited("pod-create.json", review -> ((ObjectNode) review.at(at)).put(field, value));

    JsonNode response = JSON.readTree(handler(MIRROR_HAS_EVERYTHING).handle(body)).get("response");

    assertTrue(response.get("allowed").asBoolean());
    assertNull(response.get("patch"), field + "=" + value);
  }

  @ParameterizedTest(name = "a pod creation whose {1} is \"{2}\" (null: absent) is routed")
  @CsvSource({
    "/request/kind, group, ''",
    "/request/kind, group,",
    "/request, subResource, ''",
    "/request, subResource,",
  })
  void anEmptyOrAbsentGroupOrSubresourceIsTheCorePod(String at, String field, String value) {
    byte[] body =
        edited(
            "pod-create.json",
            review -> {
              ObjectNode node = (ObjectNode) review.at(at);
              if (value == null) {
                node.remove(field);
              } else {
                node.put(field, value);
              }
            });

    JsonNode response = JSON.readTree(handler(MIRROR_HAS_EVERYTHING).handle(body)).get("response");

    assertTrue(response.has("patch"), response.toString());
  }

  /** A review built in code, whose pod is a plain map, as an untyped JSON object parses. */
  private static AdmissionReview reviewOf(Map<String, Object> pod) {
    AdmissionRequest request = new AdmissionRequest();
    request.setUid("map-1");
    request.setOperation("CREATE");
    request.setNamespace("team-a");
    request.setKind(
        new GroupVersionKindBuilder().withGroup("").withVersion("v1").withKind("Pod").build());
    request.setObject(pod);
    AdmissionReview review = new AdmissionReview();
    review.setRequest(request);
    return review;
  }

  private static Map<String, Object> mapPod(String kind, String apiVersion, Object spec) {
    Map<String, Object> pod = new LinkedHashMap<>();
    if (kind != null) {
      pod.put("kind", kind);
    }
    if (apiVersion != null) {
      pod.put("apiVersion", apiVersion);
    }
    pod.put("metadata", Map.of("generateName", "web-", "namespace", "team-a"));
    if (spec != null) {
      pod.put("spec", spec);
    }
    return pod;
  }

  private static final Object SPEC =
      Map.of("containers", List.of(Map.of("name", "nginx", "image", "nginx:1.27")));

  @ParameterizedTest(name = "a pod as a map with kind {0} and apiVersion {1} is routed: {2}")
  @CsvSource({
    ", , true",
    "Pod, v1, true",
    "Pod, , true",
    ", v1, true",
    "ConfigMap, v1, false",
    "Pod, v2, false",
  })
  void aPodGivenAsAPlainMapIsRoutedWhenItsKindAndVersionAreAPods(
      String kind, String apiVersion, boolean routed) {
    AdmissionReview answer =
        handler(MIRROR_HAS_EVERYTHING).handle(reviewOf(mapPod(kind, apiVersion, SPEC)));

    assertTrue(answer.getResponse().getAllowed());
    assertEquals(routed, answer.getResponse().getPatch() != null);
  }

  @Test
  void aMapWithoutASpecOrWithOneThatIsNoPodsIsNoPod() {
    for (Object spec : Arrays.asList(null, "oops")) {
      AdmissionReview answer =
          handler(MIRROR_HAS_EVERYTHING).handle(reviewOf(mapPod("Pod", "v1", spec)));

      assertTrue(answer.getResponse().getAllowed());
      assertNull(answer.getResponse().getPatch(), "spec " + spec);
    }
  }

  /** Fails unless some line the handler logged names the pod {@code pod} first. */
  private static void assertLoggedAs(String pod, List<LogRecord> records) {
    assertTrue(
        records.stream()
            .filter(r -> r.getParameters() != null && r.getParameters().length > 0)
            .anyMatch(r -> pod.equals(String.valueOf(r.getParameters()[0]))),
        records.stream()
            .map(r -> r.getMessage() + " " + List.of(r.getParameters()))
            .toList()
            .toString());
  }

  @Test
  void aPodGivenAsAMapIsLoggedByItsGenerateName() {
    List<LogRecord> records =
        logged(() -> handler(MIRROR_HAS_EVERYTHING).handle(reviewOf(mapPod(null, null, SPEC))));

    assertLoggedAs("team-a/web-*", records);
  }

  @Test
  void aPodWithItsOwnNameIsLoggedByIt() {
    AdmissionReview review = reviewOf(mapPod(null, null, SPEC));
    review.getRequest().setName("web-1");

    List<LogRecord> records = logged(() -> handler(MIRROR_HAS_EVERYTHING).handle(review));

    assertLoggedAs("team-a/web-1", records);
  }

  @ParameterizedTest(name = "pull secret first, a pod whose spec.nodeName is \"{0}\": gated {1}")
  @CsvSource({"'', true", "node-1, false"})
  void aPodThatNamesItsNodeIsNeverGated(String node, boolean gated) {
    byte[] review =
        edited(
            "pod-create.json",
            r -> ((ObjectNode) r.at("/request/object/spec")).put("nodeName", node));
    AdmissionHandler handler = AdmissionFixtures.gatingHandler(MIRROR_HAS_EVERYTHING);

    JsonNode answer = JSON.readTree(handler.handle(review));
    String patch =
        new String(
            Base64.getDecoder().decode(answer.at("/response/patch").asString()),
            StandardCharsets.UTF_8);

    assertTrue(patch.contains("kuik-inject-imagemirror-prod-mirror"), patch);
    assertEquals(gated, patch.contains("kuik.enix.io/pull-secret"), patch);
  }
}
