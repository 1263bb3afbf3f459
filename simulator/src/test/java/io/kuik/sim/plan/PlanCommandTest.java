package io.kuik.sim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * {@code kuik plan} on manifest sets, through the jar's command line: what it prints, in each
 * format, and its exit code. Each plan runs the production webhook and syncer on a fresh simulated
 * cluster.
 */
class PlanCommandTest {

  static final String NAMESPACES =
      """
      apiVersion: v1
      kind: Namespace
      metadata: {name: team-a, labels: {tier: prod}}
      ---
      apiVersion: v1
      kind: Namespace
      metadata: {name: team-b, labels: {tier: dev}}
      """;

  /** Two keys: the kubelet's rules pick quay.io/acme for quay.io/acme/app, by either reading. */
  static final String QUAY_PULL =
      """
      apiVersion: v1
      kind: Secret
      metadata:
        name: quay-pull
        namespace: kuik-system
        annotations: {plan.kuik.enix.io/auths-keys: "quay.io, quay.io/acme"}
      type: kubernetes.io/dockerconfigjson
      """;

  static final String ALWAYS_IN_PROD =
      """
      apiVersion: kuik.enix.io/v1alpha1
      kind: ImageAlternative
      metadata: {name: acme}
      spec:
        rewritePolicy: Always
        namespaceSelector: {matchLabels: {tier: prod}}
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth: {secretRef: {name: quay-pull}}
      """;

  static final String ON_FAILURE_EVERYWHERE =
      """
      apiVersion: kuik.enix.io/v1alpha1
      kind: ImageAlternative
      metadata: {name: fallback}
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth: {secretRef: {name: quay-pull}}
      """;

  /** A Deployment of one container, its pods labelled {@code app: <name>}. */
  static String deployment(String namespace, String name, String image) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: %s, namespace: %s}
        spec:
          selector: {matchLabels: {app: %s}}
          template:
            metadata: {labels: {app: %s}}
            spec:
              containers:
              - {name: app, image: "%s"}
        """
        .formatted(name, namespace, name, name, image);
  }

  static String pod(String namespace, String name, String image) {
    return """
        apiVersion: v1
        kind: Pod
        metadata: {name: %s, namespace: %s}
        spec:
          containers:
          - {name: app, image: "%s"}
        """
        .formatted(name, namespace, image);
  }

  @TempDir Path dir;

  @Test
  void aCleanSetPrintsTheSecretsTheCandidatesAndNoProblemAndExitsZero() {
    Path set = dir.resolve("clean");
    PlanRun.write(set, "ns.yaml", NAMESPACES);
    PlanRun.write(set, "secrets.yaml", QUAY_PULL);
    PlanRun.write(set, "routing.yaml", ALWAYS_IN_PROD);
    PlanRun.write(set, "pods.yaml", pod("team-a", "web", "docker.io/acme/app:1.0"));

    PlanRun run = PlanRun.of("-f", set.toString());

    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertTrue(
        run.out()
            .contains(
                "team-a     kuik-inject-imagealternative-acme  ImageAlternative/acme  quay.io/acme/app"
                    + "  kuik-system/quay-pull: quay.io/acme\n"),
        run.out());
    assertTrue(
        run.out()
            .contains(
                "team-a/web  app        1  quay.io/acme/app:1.0    ImageAlternative/acme"
                    + " spec.alternatives[1] Always  yes\n"),
        run.out());
    assertTrue(run.out().contains("2  docker.io/acme/app:1.0  original\n"), run.out());
    assertTrue(
        run.out()
            .contains("team-a/web  Pod team-a/web  Running  kuik-inject-imagealternative-acme"),
        run.out());
    assertTrue(run.out().endsWith("PROBLEMS\n(none)\n"), run.out());
    assertFalse(run.out().contains("team-b  "), "team-b is not tier=prod:\n" + run.out());
  }

  @Test
  void everyKindOfProblemIsReportedAsTheClusterReportsItAndExitsOne() {
    Path set = dir.resolve("problems");
    PlanRun.write(set, "ns.yaml", NAMESPACES);
    PlanRun.write(
        set,
        "more-ns.yaml",
        """
        apiVersion: v1
        kind: Namespace
        metadata:
          name: team-c
          labels: {tier: prod, kuik.enix.io/pull-secrets-instance: kuik-b}
        """);
    PlanRun.write(set, "secrets.yaml", QUAY_PULL);
    PlanRun.write(set, "routing.yaml", ALWAYS_IN_PROD);
    PlanRun.write(
        set,
        "broken.yaml",
        """
        apiVersion: kuik.enix.io/v1alpha1
        kind: ImageAlternative
        metadata: {name: upper}
        spec:
          alternatives:
          - repository: quay.io/Acme/app
        ---
        apiVersion: kuik.enix.io/v1alpha1
        kind: ImageAlternative
        metadata: {name: orphan}
        spec:
          rewritePolicy: Always
          namespaceSelector: {matchLabels: {tier: dev}}
          alternatives:
          - repository: docker.io/acme/tool
          - repository: ghcr.io/acme/tool
            auth: {secretRef: {name: ghcr-pull}}
        ---
        apiVersion: v1
        kind: Secret
        metadata: {name: kuik-inject-imagealternative-acme, namespace: team-b}
        type: kubernetes.io/dockerconfigjson
        stringData: {.dockerconfigjson: '{"auths":{}}'}
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: unrelated, namespace: team-a}
        """);
    PlanRun.write(set, "pods.yaml", pod("team-x", "lost", "docker.io/acme/app:1.0"));
    PlanRun.write(set, "deployment.yaml", deployment("team-y", "web", "docker.io/acme/app:1.0"));
    PlanRun.write(set, "c.yaml", pod("team-c", "web", "docker.io/acme/app:1.0"));
    PlanRun.write(set, "bad.yaml", "kind: [unclosed\n");

    PlanRun run = PlanRun.of("-f", set.toString(), "-o", "json");

    assertEquals(1, run.exitCode(), run.out() + run.err());
    List<String> problems = new ArrayList<>();
    for (JsonNode p : run.json().path("problems")) {
      problems.add(p.path("object").asString() + " " + p.path("reason").asString());
    }
    assertTrue(problems.contains(set.resolve("bad.yaml") + " InvalidManifest"), "" + problems);
    assertTrue(problems.contains("ImageAlternative/upper InvalidRoutingResource"), "" + problems);
    assertTrue(
        problems.contains("ImageAlternative/orphan PullSecretInjectionFailed"), "" + problems);
    assertTrue(
        problems.contains("Secret team-b/kuik-inject-imagealternative-acme Forbidden"),
        "the chart's policy refuses a reserved name to anyone but the syncer: " + problems);
    assertTrue(problems.contains("Pod team-x/lost NotFound"), "" + problems);
    assertTrue(problems.contains("Deployment team-y/web FailedCreate"), "" + problems);
    assertTrue(problems.contains("Namespace team-c NamespaceNotServed"), "" + problems);
    assertTrue(problems.contains("Pod team-c/web PullSecretMissing"), "" + problems);
    assertEquals(
        List.of("ConfigMap unrelated (" + set.resolve("broken.yaml") + "#4)"),
        List.of(run.json().path("ignored").get(0).asString()));
    String messages = run.out();
    assertEquals(
        "ImageAlternative/acme selects it, but no kuik instance writes Secrets there: it is"
            + " labelled kuik.enix.io/pull-secrets-instance=kuik-b, and no instance is installed"
            + " in kuik-b (--instance)",
        messageOf(run, "Namespace team-c"),
        "orphan selects tier=dev, not team-c");
    assertEquals("namespaces \"team-y\" not found", messageOf(run, "Deployment team-y/web"));
    assertTrue(messages.contains("kuik.enix.io/pull-secrets-instance=kuik-b"), messages);
    assertTrue(messages.contains("Secret kuik-system/ghcr-pull does not exist"), messages);
  }

  private static String messageOf(PlanRun run, String object) {
    for (JsonNode p : run.json().path("problems")) {
      if (p.path("object").asString().equals(object)) {
        return p.path("message").asString();
      }
    }
    throw new AssertionError("no problem on " + object + ": " + run.out());
  }

  @Test
  void aSecretOverOneMebibyteIsReportedAndTheNamespaceKeepsNoneOfIt() {
    Path set = dir.resolve("large");
    PlanRun.write(set, "ns.yaml", NAMESPACES);
    String password = "x".repeat(20_000);
    String config =
        "{\"auths\":{\"quay.io\":{\"username\":\"acme\",\"password\":\"" + password + "\"}}}";
    PlanRun.write(
        set,
        "big-source.yaml",
        """
        apiVersion: v1
        kind: Secret
        metadata: {name: big, namespace: kuik-system}
        type: kubernetes.io/dockerconfigjson
        data: {.dockerconfigjson: %s}
        """
            .formatted(
                Base64.getEncoder().encodeToString(config.getBytes(StandardCharsets.UTF_8))));
    StringBuilder alternatives = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      alternatives
          .append("  - repository: quay.io/acme/app")
          .append(i)
          .append("\n    auth: {secretRef: {name: big}}\n");
    }
    PlanRun.write(
        set,
        "routing.yaml",
        """
        apiVersion: kuik.enix.io/v1alpha1
        kind: ImageAlternative
        metadata: {name: many}
        spec:
          rewritePolicy: Always
          namespaceSelector: {matchLabels: {tier: prod}}
          alternatives:
        """
            + alternatives);

    PlanRun run = PlanRun.of("-f", set.toString());

    assertEquals(1, run.exitCode(), run.out());
    assertTrue(run.out().contains("ImageAlternative/many  PullSecretTooLarge"), run.out());
    assertFalse(run.out().contains(password.substring(0, 40)), "never a credential");
  }

  @Test
  void duringAnOutageTheContainerRunsTheFirstAvailableCandidateWithItsReference() {
    Path set = dir.resolve("outage");
    PlanRun.write(set, "ns.yaml", NAMESPACES);
    PlanRun.write(set, "secrets.yaml", QUAY_PULL);
    PlanRun.write(set, "routing.yaml", ON_FAILURE_EVERYWHERE);
    PlanRun.write(set, "pods.yaml", pod("team-b", "web", "docker.io/acme/app:1.0"));

    PlanRun calm = PlanRun.of("-f", set.toString(), "-o", "json");
    PlanRun hubDown =
        PlanRun.of("-f", set.toString(), "--registry-down", "docker.io", "-o", "json");
    PlanRun originalDown = PlanRun.of("-f", set.toString(), "--original-down", "-o", "json");

    assertEquals(0, calm.exitCode(), calm.out());
    JsonNode calmPod = calm.json().path("pods").get(0);
    assertEquals(
        "docker.io/acme/app:1.0", calmPod.path("containers").get(0).path("runs").asString());
    assertEquals(0, calmPod.path("addedPullSecrets").size());
    assertEquals(0, calm.json().path("secrets").size(), "OnFailure writes after a rewrite only");
    for (PlanRun outage : List.of(hubDown, originalDown)) {
      assertEquals(0, outage.exitCode(), outage.out());
      JsonNode pod = outage.json().path("pods").get(0);
      assertEquals("quay.io/acme/app:1.0", pod.path("containers").get(0).path("runs").asString());
      assertEquals(
          "kuik-inject-imagealternative-fallback", pod.path("addedPullSecrets").get(0).asString());
      assertEquals("Running", pod.path("phase").asString());
      JsonNode secret = outage.json().path("secrets").get(0);
      assertEquals("team-b", secret.path("namespace").asString());
      assertEquals("quay.io/acme/app", secret.path("keys").get(0).path("key").asString());
      assertEquals("quay.io/acme", secret.path("keys").get(0).path("sourceKeys").get(0).asString());
    }
  }

  @Test
  void withEveryCandidateDownThePodStaysPendingAndThatIsAProblem() {
    Path set = dir.resolve("all-down");
    PlanRun.write(set, "ns.yaml", NAMESPACES);
    PlanRun.write(set, "secrets.yaml", QUAY_PULL);
    PlanRun.write(set, "routing.yaml", ON_FAILURE_EVERYWHERE);
    PlanRun.write(set, "pods.yaml", pod("team-b", "web", "docker.io/acme/app:1.0"));

    PlanRun run =
        PlanRun.of(
            "-f", set.toString(), "--registry-down", "docker.io", "--registry-down", "quay.io");

    assertEquals(1, run.exitCode(), run.out());
    assertTrue(run.out().contains("team-b/web  Pod team-b/web  Pending  -"), run.out());
    assertTrue(run.out().contains("Pod team-b/web  ImagePullBackOff  "), run.out());
    assertTrue(run.out().contains("docker.io/acme/app:1.0"), run.out());
  }

  @Test
  void shardedInstancesReadTheirOwnSourceSecretsAndServeTheirOwnNamespaces() {
    Path set = dir.resolve("shards");
    PlanRun.write(
        set,
        "ns.yaml",
        """
        apiVersion: v1
        kind: Namespace
        metadata: {name: team-a, labels: {kuik.enix.io/pull-secrets-instance: kuik-b}}
        ---
        apiVersion: v1
        kind: Namespace
        metadata: {name: team-b}
        """);
    // No namespace: one copy in each instance's namespace, as docs/cli.md says.
    PlanRun.write(set, "secrets.yaml", QUAY_PULL.replace("  namespace: kuik-system\n", ""));
    PlanRun.write(set, "routing.yaml", ALWAYS_IN_PROD.replace("{matchLabels: {tier: prod}}", "{}"));

    PlanRun run =
        PlanRun.of(
            "-f",
            set.toString(),
            "--instance",
            "kuik-a",
            "--instance",
            "kuik-b=false",
            "-o",
            "yaml");

    assertEquals(0, run.exitCode(), run.out());
    JsonNode plan = new YAMLMapper().readTree(run.out());
    List<String> written = new ArrayList<>();
    for (JsonNode secret : plan.path("secrets")) {
      written.add(
          secret.path("namespace").asString()
              + " "
              + secret.path("keys").get(0).path("source").asString());
    }
    assertTrue(written.contains("team-a kuik-b/quay-pull"), "" + written);
    assertTrue(written.contains("team-b kuik-a/quay-pull"), "" + written);
    assertEquals("kuik-a (namespaces by default: true)", plan.path("instances").get(0).asString());
    assertEquals("kuik-b (namespaces by default: false)", plan.path("instances").get(1).asString());
  }

  @Test
  void aDiffListsWhatChangesFromTheManifestsBefore() {
    Path before = dir.resolve("before");
    PlanRun.write(before, "ns.yaml", NAMESPACES);
    PlanRun.write(before, "secrets.yaml", QUAY_PULL);
    PlanRun.write(before, "routing.yaml", ALWAYS_IN_PROD);
    PlanRun.write(before, "pods.yaml", pod("team-b", "web", "docker.io/acme/app:1.0"));
    Path after = dir.resolve("after");
    // team-b becomes prod: the Always alternative now covers it.
    PlanRun.write(after, "ns.yaml", NAMESPACES.replace("tier: dev", "tier: prod"));
    PlanRun.write(after, "secrets.yaml", QUAY_PULL);
    PlanRun.write(after, "routing.yaml", ALWAYS_IN_PROD);
    PlanRun.write(after, "pods.yaml", pod("team-b", "web", "docker.io/acme/app:1.0"));

    PlanRun run = PlanRun.of("-f", after.toString(), "--diff", before.toString());
    PlanRun same = PlanRun.of("-f", before.toString(), "--diff", before.toString());
    PlanRun json = PlanRun.of("-f", after.toString(), "--diff", before.toString(), "-o", "json");

    assertEquals(0, run.exitCode(), run.out());
    String out = run.out();
    assertTrue(
        hasRow(
            out,
            "added",
            "Secret team-b/kuik-inject-imagealternative-acme",
            "key quay.io/acme/app",
            "-",
            "kuik-system/quay-pull: quay.io/acme"),
        out);
    assertTrue(
        hasRow(
            out,
            "changed",
            "Pod team-b/web container app",
            "runs",
            "docker.io/acme/app:1.0",
            "quay.io/acme/app:1.0"),
        out);
    assertTrue(out.endsWith("PROBLEMS\n(none)\n"), out);
    assertTrue(same.out().startsWith("CHANGES\n(none)\n"), same.out());
    assertEquals(5, json.json().path("changes").size(), json.out());
    assertEquals(
        "Pod team-b/web", json.json().path("after").path("pods").get(0).path("source").asString());
  }

  @Test
  void aRedactedSecretThatAlsoHoldsDataIsRefusedAsInput() {
    Path set = dir.resolve("redacted");
    PlanRun.write(set, "ns.yaml", NAMESPACES);
    PlanRun.write(set, "secrets.yaml", QUAY_PULL + "data: {.dockerconfigjson: e30=}\n");

    PlanRun run = PlanRun.of("-f", set.toString());

    assertEquals(1, run.exitCode(), run.out());
    assertTrue(run.out().contains("InvalidManifest"), run.out());
    assertTrue(
        run.out().contains("is redacted (plan.kuik.enix.io/auths-keys) but also holds data"));
  }

  /** {@code -o yaml} says what {@code -o json} says, a plan and a diff alike; any case is read. */
  @Test
  void yamlSaysWhatJsonSaysForAPlanAndADiff() {
    Path before = dir.resolve("yaml-before");
    PlanRun.write(before, "ns.yaml", NAMESPACES);
    PlanRun.write(before, "secrets.yaml", QUAY_PULL);
    PlanRun.write(before, "routing.yaml", ALWAYS_IN_PROD);
    PlanRun.write(before, "pods.yaml", pod("team-b", "web", "docker.io/acme/app:1.0"));
    Path after = dir.resolve("yaml-after");
    PlanRun.write(after, "ns.yaml", NAMESPACES.replace("tier: dev", "tier: prod"));
    PlanRun.write(after, "secrets.yaml", QUAY_PULL);
    PlanRun.write(after, "routing.yaml", ALWAYS_IN_PROD);
    PlanRun.write(after, "pods.yaml", pod("team-b", "web", "docker.io/acme/app:1.0"));
    YAMLMapper yaml = YAMLMapper.builder().build();

    for (String[] args :
        List.of(
            new String[] {"-f", after.toString()},
            new String[] {"-f", after.toString(), "--diff", before.toString()})) {
      List<String> asJson = new ArrayList<>(List.of(args));
      asJson.addAll(List.of("-o", "json"));
      List<String> asYaml = new ArrayList<>(List.of(args));
      asYaml.addAll(List.of("-o", "YAML"));
      PlanRun json = PlanRun.of(asJson.toArray(String[]::new));
      PlanRun yamlRun = PlanRun.of(asYaml.toArray(String[]::new));

      assertEquals(0, yamlRun.exitCode(), yamlRun.err());
      assertEquals(json.json(), yaml.readTree(yamlRun.out()), String.join(" ", args));
      assertFalse(json.json().isEmpty(), json.out());
    }
  }

  @Test
  void aBadCommandLineExitsTwo() {
    Path set = PlanRun.write(dir.resolve("ok"), "ns.yaml", NAMESPACES);
    assertEquals(2, PlanRun.of().exitCode(), "-f is required");
    assertEquals(2, PlanRun.of("-f", dir.resolve("nowhere").toString()).exitCode());
    assertEquals(2, PlanRun.of("-f", set.toString(), "-o", "xml").exitCode());
    assertEquals(2, PlanRun.of("-f", set.toString(), "--instance", "Kuik_System").exitCode());
    assertEquals(2, PlanRun.of("-f", set.toString(), "--instance", "kuik-a=maybe").exitCode());
    assertEquals(2, PlanRun.of("-f", set.toString(), "--registry-down", "http://x").exitCode());
    PlanRun missing = PlanRun.of("-f", dir.resolve("nowhere").toString());
    assertTrue(missing.err().contains("no such file or folder"), missing.err());
    PlanRun unnamed = PlanRun.of("-f", set.toString(), "--instance", "=true");
    assertEquals(2, unnamed.exitCode());
    assertTrue(
        unnamed.err().contains("Invalid --instance '=true': '' is no namespace"), unnamed.err());
  }

  // ---- nothing to plan ---------------------------------------------------------------------

  /** A plan of nothing would exit 0 with no problem: CI would take a typo for a pass. */
  @Test
  void anEmptyFileIsNothingToPlanAndExitsTwoSayingWhatWasRead() {
    Path empty = PlanRun.write(dir.resolve("empty"), "empty.yaml", "");

    PlanRun run = PlanRun.of("-f", empty.resolve("empty.yaml").toString());

    assertEquals(2, run.exitCode(), run.out() + run.err());
    assertEquals("", run.out());
    assertTrue(run.err().contains("kuik plan: nothing to plan"), run.err());
    assertTrue(run.err().contains("empty.yaml: no YAML document (empty)"), run.err());
  }

  @Test
  void aFolderWithoutYamlIsNothingToPlanAndExitsTwo() {
    Path folder = PlanRun.write(dir.resolve("docs"), "README.txt", "hello");

    PlanRun run = PlanRun.of("-f", folder.toString());

    assertEquals(2, run.exitCode(), run.out() + run.err());
    assertTrue(
        run.err().contains(folder + ": a folder without any *.yaml, *.yml or *.json file"),
        run.err());
  }

  @Test
  void aDockerComposeFileIsNamedAsSuchAndExitsTwo() {
    Path folder =
        PlanRun.write(
            dir.resolve("compose"),
            "compose.yaml",
            "services:\n  web:\n    image: nginx:1.27\n    ports: [\"80:80\"]\n");

    PlanRun run = PlanRun.of("-f", folder.toString());

    assertEquals(2, run.exitCode(), run.out() + run.err());
    assertTrue(run.err().contains("compose.yaml: 1 document\n"), run.err());
    assertTrue(run.err().contains("a Docker Compose file"), run.err());
  }

  @Test
  void aHelmChartFolderIsRefusedWithTheCommandThatRendersIt() {
    Path chart = PlanRun.write(dir.resolve("chart"), "Chart.yaml", "apiVersion: v2\nname: app\n");
    PlanRun.write(
        chart.resolve("templates"),
        "pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}\n");

    PlanRun run = PlanRun.of("-f", chart.toString());

    assertEquals(2, run.exitCode(), run.out() + run.err());
    assertTrue(run.err().contains("is a Helm chart (it holds Chart.yaml)"), run.err());
    assertTrue(run.err().contains("helm template <release> " + chart), run.err());
    assertTrue(run.err().contains("plan -f -"), run.err());
  }

  @Test
  void aTemplateFileIsNamedAsOneWithTheLineThatDoesNotParse() {
    Path templates =
        PlanRun.write(
            dir.resolve("templates"),
            "deployment.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
                + "  labels:\n    {{- include \"app.labels\" . | nindent 4 }}\n");

    PlanRun run = PlanRun.of("-f", templates.toString());

    assertEquals(2, run.exitCode(), run.out() + run.err());
    assertTrue(
        run.err()
            .contains("deployment.yaml: not valid YAML at line 6: it looks like a Helm template"),
        run.err());
  }

  // ---- standard input ------------------------------------------------------------------------

  /** {@code helm template ... | kuik plan -f -}: Helm's output, its Source comments included. */
  @Test
  void dashReadsTheManifestsFromStandardInputAsAFolderWouldGiveThem() {
    Path set = dir.resolve("piped");
    PlanRun.write(set, "ns.yaml", NAMESPACES);
    PlanRun.write(set, "secrets.yaml", QUAY_PULL);
    PlanRun.write(set, "routing.yaml", ALWAYS_IN_PROD);
    PlanRun.write(set, "pods.yaml", pod("team-a", "web", "docker.io/acme/app:1.0"));
    String rendered =
        String.join(
            "---\n",
            List.of(
                "# Source: app/templates/ns.yaml\n" + NAMESPACES,
                "# Source: app/templates/secrets.yaml\n" + QUAY_PULL,
                "# Source: app/templates/routing.yaml\n" + ALWAYS_IN_PROD,
                "# Source: app/templates/pods.yaml\n"
                    + pod("team-a", "web", "docker.io/acme/app:1.0")));
    PlanRun fromFolder = PlanRun.of("-f", set.toString());
    InputStream stdin = System.in;
    PlanRun piped;
    try {
      System.setIn(new ByteArrayInputStream(rendered.getBytes(StandardCharsets.UTF_8)));
      piped = PlanRun.of("-f", "-");
    } finally {
      System.setIn(stdin);
    }

    assertEquals(0, piped.exitCode(), piped.out() + piped.err());
    assertEquals(fromFolder.out(), piped.out());
  }

  // ---- namespaces --------------------------------------------------------------------------

  /**
   * The simulated cluster holds namespaces of its own (Velero's): a plan shows only those its
   * manifests and instances name, and says which namespaces every cluster has would get Secrets.
   */
  @Test
  void onlyTheNamespacesTheManifestsNameAreShown() {
    Path set = dir.resolve("everywhere");
    PlanRun.write(set, "ns.yaml", NAMESPACES);
    PlanRun.write(set, "secrets.yaml", QUAY_PULL);
    PlanRun.write(
        set,
        "routing.yaml",
        ALWAYS_IN_PROD.replace("  namespaceSelector: {matchLabels: {tier: prod}}\n", ""));

    PlanRun run = PlanRun.of("-f", set.toString());

    List<String> namespaces =
        run.out()
            .lines()
            .dropWhile(line -> !line.startsWith("NAMESPACE"))
            .skip(1)
            .takeWhile(line -> !line.isBlank())
            .map(line -> line.split(" +")[0])
            .filter(cell -> !cell.isEmpty())
            .toList();
    // Not kuik-system nor kube-system: namespaces kuik never serves.
    assertEquals(List.of("team-a", "team-b"), namespaces, run.out());
    assertFalse(run.out().contains("velero"), run.out());
    assertTrue(
        run.out().contains("these manifests do not name: default, kube-node-lease, kube-public."),
        run.out());
    assertEquals(
        List.of("default", "kube-node-lease", "kube-public"),
        strings(PlanRun.of("-f", set.toString(), "-o", "json").json().path("otherNamespaces")));
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(item -> out.add(item.asString()));
    return out;
  }

  /** Whether a line of the table holds exactly these cells, in order. */
  static boolean hasRow(String table, String... cells) {
    return table.lines().anyMatch(line -> List.of(line.split(" {2,}")).equals(List.of(cells)));
  }

  @Test
  void everyFlagIsExplainedInTheHelp() {
    CommandLine plan = Main.commandLine().getSubcommands().get("plan");
    String help = plan.getUsageMessage();
    for (OptionSpec option : plan.getCommandSpec().options()) {
      assertTrue(option.description().length > 0, option.longestName() + " has no description");
      assertTrue(help.contains(option.longestName()), option.longestName());
    }
    assertTrue(help.contains("plan.kuik.enix.io/auths-keys"), "the redacted form is defined");
    assertTrue(help.contains("1   a problem was found"), help);
  }
}
