package io.kuik.sim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code kuik plan} on the shapes of input that {@link PlanCommandTest}'s sets do not hold:
 * provider entries of both kinds of resource, a Deployment whose pods the API server refuses, a
 * {@code v1 List}, and the kubelet's words for a pod that does not start.
 */
class PlanSourcesTest {

  private static final String ECR = "123456789012.dkr.ecr.eu-west-1.amazonaws.com";
  private static final String GAR = "europe-docker.pkg.dev";

  @TempDir Path dir;

  @Test
  void aProviderEntrysKeyIsMintedAtRunTimeInAnAlternativeAndInAMirror() {
    Path set = dir.resolve("providers");
    PlanRun.write(set, "ns.yaml", PlanCommandTest.NAMESPACES);
    PlanRun.write(
        set,
        "routing.yaml",
        """
        apiVersion: kuik.enix.io/v1alpha1
        kind: ImageAlternative
        metadata: {name: ecr}
        spec:
          rewritePolicy: Always
          namespaceSelector: {matchLabels: {tier: prod}}
          alternatives:
          - repository: docker.io/acme/app
          - repository: %s/acme/app
            auth: {provider: ecr-credential-provider, injectPullSecret: true}
        ---
        apiVersion: kuik.enix.io/v1alpha1
        kind: ImageMirror
        metadata: {name: gar}
        spec:
          rewritePolicy: Always
          namespaceSelector: {matchLabels: {tier: dev}}
          destination:
            path: %s/acme/mirror/
            pull:
              auth: {provider: gcp-credential-provider, injectPullSecret: true}
        """
            .formatted(ECR, GAR));
    PlanRun.write(set, "pods.yaml", PlanCommandTest.pod("team-a", "web", "docker.io/acme/app:1.0"));

    PlanRun run = PlanRun.of("-f", set.toString(), "-o", "json");

    assertEquals(0, run.exitCode(), run.out());
    List<String> keys = new ArrayList<>();
    for (JsonNode secret : run.json().path("secrets")) {
      for (JsonNode key : secret.path("keys")) {
        keys.add(
            secret.path("namespace").asString()
                + " "
                + secret.path("name").asString()
                + " "
                + key.path("key").asString()
                + " <- "
                + key.path("source").asString());
      }
    }
    assertEquals(
        List.of(
            "team-a kuik-inject-imagealternative-ecr "
                + ECR
                + "/acme/app <- minted at run time by provider ecr-credential-provider",
            "team-b kuik-inject-imagemirror-gar "
                + GAR
                + "/acme/mirror <- minted at run time by provider gcp-credential-provider"),
        keys,
        run.out());
    JsonNode web = run.json().path("pods").get(0);
    assertEquals("Running", web.path("phase").asString(), run.out());
  }

  @Test
  void aDeploymentWhosePodsAreRefusedSaysWhatTheApiServerAnsweredTheReplicaSetController() {
    Path set = dir.resolve("refused");
    PlanRun.write(set, "ns.yaml", PlanCommandTest.NAMESPACES);
    PlanRun.write(
        set,
        "deployments.yaml",
        PlanCommandTest.deployment("team-y", "web", "docker.io/acme/app:1.0")
            + "---\n"
            + PlanCommandTest.deployment("team-a", "web-canary", "docker.io/acme/app:1.0"));

    PlanRun run = PlanRun.of("-f", set.toString(), "-o", "json");

    assertEquals(1, run.exitCode(), run.out());
    List<String> problems = new ArrayList<>();
    for (JsonNode p : run.json().path("problems")) {
      problems.add(
          p.path("object").asString()
              + " "
              + p.path("reason").asString()
              + ": "
              + p.path("message").asString());
    }
    assertEquals(
        List.of("Deployment team-y/web FailedCreate: namespaces \"team-y\" not found"),
        problems,
        "the canary in team-a, whose name starts with web-, runs: " + run.out());
  }

  @Test
  void aListIsPlannedItemByItemAndAnItemThatIsNotAnObjectIsSkipped() {
    Path set = dir.resolve("list");
    PlanRun.write(
        set,
        "list.yaml",
        """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: Namespace
          metadata: {name: team-a, labels: {tier: prod}}
        - just a string
        - apiVersion: v1
          kind: Pod
          metadata: {name: web, namespace: team-a}
          spec:
            containers:
            - {name: app, image: docker.io/acme/app:1.0}
        - apiVersion: v1
          kind: Pod
          metadata: {name: lost, namespace: team-x}
          spec:
            containers:
            - {name: app, image: docker.io/acme/app:1.0}
        """);

    PlanRun run = PlanRun.of("-f", set.toString(), "-o", "json");

    assertEquals(1, run.exitCode(), run.out());
    List<String> pods = new ArrayList<>();
    for (JsonNode pod : run.json().path("pods")) {
      pods.add(pod.path("namespace").asString() + "/" + pod.path("name").asString());
    }
    assertEquals(List.of("team-a/web"), pods, run.out());
    JsonNode lost = run.json().path("problems").get(0);
    assertEquals("Pod team-x/lost", lost.path("object").asString(), run.out());
    assertEquals("NotFound", lost.path("reason").asString(), run.out());
  }

  @Test
  void aPodThatCannotPullIsReportedWithTheKubeletsLastWordOnWhy() {
    Path set = dir.resolve("all-down");
    PlanRun.write(set, "ns.yaml", PlanCommandTest.NAMESPACES);
    PlanRun.write(set, "pods.yaml", PlanCommandTest.pod("team-b", "web", "docker.io/acme/app:1.0"));

    PlanRun run = PlanRun.of("-f", set.toString(), "--registry-down", "docker.io", "-o", "json");

    assertEquals(1, run.exitCode(), run.out());
    JsonNode problem = run.json().path("problems").get(0);
    assertEquals("Pod team-b/web", problem.path("object").asString(), run.out());
    assertEquals("ImagePullBackOff", problem.path("reason").asString(), run.out());
    String message = problem.path("message").asString();
    assertTrue(
        message.startsWith("Failed to pull image \"docker.io/acme/app:1.0\": "),
        "the kubelet's reason, not its \"Error: ...\" summary nor the back-off: " + message);
  }

  @Test
  void aNamespaceEveryClusterHasTakesTheDeclaredLabelsAndAPodWithoutANamespaceLandsThere() {
    Path set = dir.resolve("default");
    PlanRun.write(
        set,
        "ns.yaml",
        """
        apiVersion: v1
        kind: Namespace
        metadata: {name: default, labels: {tier: prod}}
        """);
    PlanRun.write(set, "secrets.yaml", PlanCommandTest.QUAY_PULL);
    PlanRun.write(set, "routing.yaml", PlanCommandTest.ALWAYS_IN_PROD);
    PlanRun.write(
        set,
        "pods.yaml",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          containers:
          - {name: app, image: docker.io/acme/app:1.0}
        """);

    PlanRun run = PlanRun.of("-f", set.toString(), "-o", "json");

    assertEquals(0, run.exitCode(), run.out());
    JsonNode secret = run.json().path("secrets").get(0);
    assertEquals("default", secret.path("namespace").asString(), run.out());
    assertEquals(1, run.json().path("secrets").size(), run.out());
    JsonNode web = run.json().path("pods").get(0);
    assertEquals(
        "default/web", web.path("namespace").asString() + "/" + web.path("name").asString());
    assertEquals(
        "kuik-inject-imagealternative-acme", web.path("addedPullSecrets").get(0).asString());
    assertEquals(0, run.json().path("otherNamespaces").size(), "default is declared: " + run.out());
  }

  @Test
  void aNamespaceThatNoInstanceServesByDefaultIsAProblemNamingTheMirrorThatSelectsIt() {
    Path set = dir.resolve("unserved");
    PlanRun.write(set, "ns.yaml", PlanCommandTest.NAMESPACES);
    PlanRun.write(
        set,
        "routing.yaml",
        """
        apiVersion: kuik.enix.io/v1alpha1
        kind: ImageMirror
        metadata: {name: mirror}
        spec:
          rewritePolicy: Always
          namespaceSelector: {matchLabels: {tier: prod}}
          destination:
            path: %s/acme/mirror/
            pull:
              auth: {provider: gcp-credential-provider, injectPullSecret: true}
        """
            .formatted(GAR));
    PlanRun.write(set, "README.md", "# not a manifest: a folder's other files are not read\n");

    PlanRun run = PlanRun.of("-f", set.toString(), "--instance", "kuik-system=false", "-o", "json");

    assertEquals(1, run.exitCode(), run.out());
    List<String> problems = new ArrayList<>();
    for (JsonNode p : run.json().path("problems")) {
      problems.add(
          p.path("object").asString()
              + " "
              + p.path("reason").asString()
              + ": "
              + p.path("message").asString());
    }
    assertEquals(
        List.of(
            "Namespace team-a NamespaceNotServed: ImageMirror/mirror selects it, but no kuik"
                + " instance writes Secrets there: it has neither targeting label, and no instance"
                + " serves namespaces by default (--namespaces-by-default)"),
        problems,
        run.out());
  }

  @Test
  void aPodWithoutANamespaceNamesDefaultAsTheManifestsNamespace() {
    Path set = dir.resolve("default-pod");
    PlanRun.write(set, "ns.yaml", PlanCommandTest.NAMESPACES);
    PlanRun.write(set, "secrets.yaml", PlanCommandTest.QUAY_PULL);
    PlanRun.write(
        set,
        "routing.yaml",
        PlanCommandTest.ALWAYS_IN_PROD.replace(
            "  namespaceSelector: {matchLabels: {tier: prod}}\n", ""));
    PlanRun.write(set, "pods.yaml", PlanCommandTest.pod("team-a", "web", "docker.io/acme/app:1.0"));
    PlanRun namespaced = PlanRun.of("-f", set.toString(), "-o", "json");
    PlanRun.write(
        set,
        "more-pods.yaml",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          containers:
          - {name: app, image: docker.io/acme/app:1.0}
        """);

    PlanRun withDefault = PlanRun.of("-f", set.toString(), "-o", "json");

    assertEquals(
        List.of("default", "kube-node-lease", "kube-public"),
        strings(namespaced.json().path("otherNamespaces")),
        namespaced.out());
    assertEquals(
        List.of("kube-node-lease", "kube-public"),
        strings(withDefault.json().path("otherNamespaces")),
        "a pod's manifest without a namespace names default: " + withDefault.out());
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(item -> out.add(item.asString()));
    return out;
  }
}
