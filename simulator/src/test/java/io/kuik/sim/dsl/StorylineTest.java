package io.kuik.sim.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.RegistryCredential;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The storyline the demo prints (the README's demo command, features/demo): the demo's own start,
 * an OnFailure rewrite during an outage of docker.io, with the administrator's setup on one line,
 * the webhook's rewrite before the pod's creation, and each Event by its type and reason.
 */
class StorylineTest {

  private final KuikWorld world = new KuikWorld(7);

  private List<String> demoStart() {
    world.install().install("kuik-system");
    world.pass(Duration.ofSeconds(1));
    world.actions().registryServes("quay.io", List.of("quay.io/acme/app:1.0"), "acme", "s3cret");
    world.actions().registryServesAnonymously("docker.io", List.of("docker.io/acme/app:1.0"));
    world
        .objects()
        .dockerRegistrySecret(
            "kuik-system",
            "acme-pull",
            Map.of("quay.io/acme", RegistryCredential.basic("acme", "s3cret")));
    world.objects().createNamespace("shop", Map.of());
    world
        .objects()
        .createResource(
            "ImageAlternative",
            "acme-app",
            "spec:\n  rewritePolicy: OnFailure\n  alternatives:\n  - repository: docker.io/acme/app\n"
                + "  - repository: quay.io/acme/app\n    auth:\n      secretRef: {name: acme-pull}\n");
    world.pass(Duration.ofSeconds(2));
    world.faults().registryDown("docker.io");
    world
        .workloads()
        .submitPod("shop", "web-1", Map.of("app", "docker.io/acme/app:1.0"), Map.of(), List.of());
    world.pass(Duration.ofSeconds(15));
    return Arrays.asList(world.views().storyline().split("\n"));
  }

  private static List<String> withAction(List<String> lines, String action) {
    return lines.stream().filter(l -> l.matches("\\+\\S+\\s+\\S+\\s+" + action + "\\s.*")).toList();
  }

  @Test
  void theAdministratorsSetupIsOneLineAndComesFirst() {
    List<String> lines = demoStart();

    assertTrue(lines.get(0).contains("admin") && lines.get(0).contains("SETUP"), lines.get(0));
    assertTrue(lines.get(0).contains("2 customresourcedefinitions"), lines.get(0));
    assertEquals(1, lines.stream().filter(l -> l.matches("\\S+\\s+admin\\s.*")).count());
  }

  @Test
  void theWebhooksRewriteShowsBeforeThePodsCreation() {
    List<String> lines = demoStart();

    List<String> rewrites = withAction(lines, "REWRITE");
    assertEquals(2, rewrites.size(), String.join("\n", lines));
    assertTrue(
        rewrites
            .get(0)
            .contains("pods shop/web-1 app: docker.io/acme/app:1.0 -> quay.io/acme/app:1.0"),
        rewrites.get(0));
    assertTrue(
        rewrites.get(1).contains("imagePullSecrets += kuik-inject-imagealternative-acme-app"),
        rewrites.get(1));
    int created =
        lines.indexOf(
            withAction(lines, "CREATE").stream()
                .filter(l -> l.contains("pods shop/web-1"))
                .findFirst()
                .orElseThrow());
    assertTrue(lines.indexOf(rewrites.get(1)) < created, "the rewrite comes first");
  }

  @Test
  void everyEventShowsItsTypeAndReasonInsteadOfItsGeneratedName() {
    List<String> lines = demoStart();

    List<String> events = withAction(lines, "EVENT");
    assertTrue(
        events.stream()
            .anyMatch(e -> e.contains("Pod shop/web-1: Warning FailedToRetrieveImagePullSecret: ")),
        String.join("\n", events));
    assertTrue(
        events.stream().anyMatch(e -> e.contains("Pod shop/web-1: Normal Pulled: ")),
        String.join("\n", events));
    assertEquals(
        List.of(), lines.stream().filter(l -> l.contains("CREATE          events ")).toList());
  }

  @Test
  void internalsStayInTheFullTimelineAndTheStoryKeepsItsRelativeClock() {
    List<String> lines = demoStart();
    String full = world.views().timeline();

    assertTrue(full.contains("EFFECT WAKE"), "the full timeline keeps the core's effects");
    assertTrue(full.contains("deployments/status"), "and the controllers' bookkeeping");
    for (String line : lines) {
      assertTrue(line.matches("\\+\\d\\d:\\d\\d:\\d\\d\\.\\d{3} .*"), line);
      assertTrue(!line.contains("EFFECT "), line);
      assertTrue(!line.matches(".*\\d{4}-\\d\\d-\\d\\dT.*"), "no absolute time: " + line);
      assertTrue(
          !line.matches("\\S+\\s+\\S+\\s+GET\\s+(?![\\s]|secrets ).*"),
          "a read of a Secret: " + line);
      assertTrue(!line.contains("pods/status") && !line.contains("deployments/status"), line);
    }
    assertTrue(
        lines.stream().anyMatch(l -> l.matches(".*kubelet\\s+GET\\s+secrets shop/.*")),
        "the kubelet's reads of the Secret stay");
    assertTrue(
        lines.stream().anyMatch(l -> l.matches(".*syncer\\s+APPLY\\s+secrets shop/.*")),
        "the syncer's writes stay");
    assertTrue(
        lines.size() * 2 < full.lines().count(), lines.size() + " of " + full.lines().count());
  }

  @Test
  void anOutageReadsAsItsWindowAndTheRefusedWritesNotTheRetryTimers() {
    demoStart();
    world
        .objects()
        .dockerRegistrySecret(
            "kuik-system",
            "acme-pull",
            Map.of("quay.io/acme", RegistryCredential.basic("acme", "rotated")));
    world.faults().apiServerUnavailable(Duration.ofMinutes(2));
    world.pass(Duration.ofMinutes(5));
    List<String> lines = Arrays.asList(world.views().storyline().split("\n"));

    assertTrue(lines.stream().anyMatch(l -> l.contains(" OUTAGE ")), String.join("\n", lines));
    assertTrue(lines.stream().anyMatch(l -> l.contains(" RECOVERED ")), String.join("\n", lines));
    assertTrue(
        lines.stream().anyMatch(l -> l.matches(".*syncer\\s+APPLY\\s+secrets shop/.* 503 .*")),
        String.join("\n", lines));
    assertEquals(List.of(), lines.stream().filter(l -> l.contains("EFFECT")).toList());
    assertTrue(
        world.views().timeline().contains("EFFECT WAKE"),
        "the retries' timers are in the full timeline");
  }

  @Test
  void renderingTheStorylineLeavesTheTraceUnchanged() {
    demoStart();
    String hash = world.cluster().trace().hash();

    world.views().storyline();

    assertEquals(hash, world.cluster().trace().hash());
  }
}
