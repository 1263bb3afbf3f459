package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.cli.Main;
import io.kuik.model.DockerConfig;
import io.kuik.model.RegistryCredential;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.plan.Manifests;
import io.kuik.sim.world.object.Meta;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * kuik plan, run through the jar's command line on a set of manifests, and the same manifests
 * applied to the scenario's cluster; the Thens compare what the plan printed with what the cluster
 * holds.
 */
public class PlanSteps {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final ScenarioState state;

  public PlanSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  @Given("the manifests {word}:")
  public void theManifests(String name, String yaml) throws IOException {
    Path folder = Files.createTempDirectory("kuik-plan-" + name);
    Files.writeString(folder.resolve(name + ".yaml"), yaml);
    state.manifests.put(name, folder);
  }

  @When("kuik plan runs on the manifests {word}")
  public void kuikPlanRuns(String name) {
    kuikPlanRuns(name, "");
  }

  @When("^kuik plan runs on the manifests (\\S+) with (.+)$")
  public void kuikPlanRuns(String name, String flags) {
    List<String> args =
        new ArrayList<>(List.of("plan", "-f", folder(name).toString(), "-o", "json"));
    if (!flags.isBlank()) {
      args.addAll(List.of(flags.trim().split("\\s+")));
    }
    CommandLine kuik = Main.commandLine();
    StringWriter out = new StringWriter();
    kuik.setOut(new PrintWriter(out, true));
    kuik.setErr(new PrintWriter(new StringWriter(), true));
    int code = kuik.execute(args.toArray(String[]::new));
    state.plan = JSON.readTree(out.toString());
    state.plan = ((ObjectNode) state.plan).put("exitCode", code);
  }

  /** As kubectl create -f, in the order kuik plan applies them. */
  @When("the manifests {word} are applied")
  public void theManifestsAreApplied(String name) {
    Manifests.Set set = Manifests.read(List.of(folder(name)));
    for (Manifests.Manifest ns : set.namespaces()) {
      if (world().views().namespace(ns.name()).isEmpty()) {
        world().objects().create(ns.object());
      }
    }
    set.secrets().forEach(m -> world().objects().create(m.object()));
    set.routingResources().forEach(m -> world().objects().create(m.object()));
    world().pass(Duration.ofSeconds(5));
    set.pods().forEach(m -> world().objects().create(m.object()));
    for (Manifests.Manifest deployment : set.deployments()) {
      world()
          .workloads()
          .deployment(
              deployment.namespace(),
              deployment.name(),
              (ObjectNode) deployment.object().path("spec").path("template"),
              1);
    }
  }

  @Then("kuik plan must have found no problem")
  public void noProblem() {
    assertEquals(0, state.plan.path("exitCode").asInt(), state.plan.toString());
    assertEquals(0, state.plan.path("problems").size(), state.plan.path("problems").toString());
  }

  @Then(
      "^kuik plan must show ([a-z0-9-]+)'s ([a-z0-9.-]+) holding (\\S+), minted at run time by provider (\\S+)$")
  public void plannedAsMinted(String namespace, String name, String key, String provider) {
    for (JsonNode secret : state.plan.path("secrets")) {
      if (secret.path("namespace").asString().equals(namespace)
          && secret.path("name").asString().equals(name)) {
        for (JsonNode k : secret.path("keys")) {
          if (k.path("key").asString().equals(key)) {
            assertEquals("minted at run time by provider " + provider, k.path("source").asString());
            return;
          }
        }
      }
    }
    throw new AssertionError(
        "kuik plan shows no key " + key + " in " + namespace + "/" + name + ": " + state.plan);
  }

  @Then("^kuik plan must have planned (\\d+) kuik-inject Secrets?$")
  public void plannedSecrets(int count) {
    assertEquals(count, state.plan.path("secrets").size(), state.plan.path("secrets").toString());
  }

  @Then(
      "the cluster's kuik-inject Secrets must be those kuik plan printed, each key holding the"
          + " credential of the source key it named")
  public void theSecretsAreThePlanned() {
    Map<String, List<String>> planned = new TreeMap<>();
    for (JsonNode secret : state.plan.path("secrets")) {
      List<String> keys = new ArrayList<>();
      secret.path("keys").forEach(k -> keys.add(k.path("key").asString()));
      planned.put(secret.path("namespace").asString() + "/" + secret.path("name").asString(), keys);
    }
    Map<String, List<String>> held = new TreeMap<>();
    for (ObjectNode secret : world().views().secrets()) {
      if (Meta.name(secret).startsWith("kuik-inject-")) {
        held.put(
            Meta.namespace(secret) + "/" + Meta.name(secret),
            new ArrayList<>(
                world()
                    .views()
                    .dockerConfigOf(Meta.namespace(secret), Meta.name(secret))
                    .auths()
                    .keySet()));
      }
    }
    assertEquals(planned, held, "the Secrets and keys kuik plan printed, and those of the cluster");
    for (JsonNode secret : state.plan.path("secrets")) {
      DockerConfig config =
          world()
              .views()
              .dockerConfigOf(secret.path("namespace").asString(), secret.path("name").asString());
      for (JsonNode key : secret.path("keys")) {
        String[] source = key.path("source").asString().split("/", 2);
        RegistryCredential expected =
            world()
                .views()
                .dockerConfigOf(source[0], source[1])
                .auths()
                .get(key.path("sourceKeys").get(0).asString());
        assertEquals(
            expected,
            config.auths().get(key.path("key").asString()),
            "the credential of " + key.path("key").asString() + " is " + key.path("from"));
      }
    }
  }

  @Then(
      "every pod must run the images kuik plan chose, with the references it added, in the phase"
          + " it planned")
  public void everyPodIsAsPlanned() {
    List<String> pods = new ArrayList<>();
    for (JsonNode planned : state.plan.path("pods")) {
      String namespace = planned.path("namespace").asString();
      String name = planned.path("name").asString();
      pods.add(namespace + "/" + name);
      ObjectNode pod = world().views().pod(namespace, name);
      for (JsonNode container : planned.path("containers")) {
        String image = null;
        for (JsonNode live : pod.path("spec").path("containers")) {
          if (live.path("name").asString().equals(container.path("name").asString())) {
            image = live.path("image").asString();
          }
        }
        assertEquals(container.path("runs").asString(), image, name + " " + container);
      }
      List<String> references = new ArrayList<>();
      pod.path("spec")
          .path("imagePullSecrets")
          .forEach(r -> references.add(r.path("name").asString()));
      planned
          .path("addedPullSecrets")
          .forEach(
              added ->
                  assertTrue(
                      references.contains(added.asString()), name + " references " + references));
      assertEquals(
          planned.path("phase").asString(),
          world().views().kubeletPhase(namespace, name),
          name + "'s phase");
    }
    Set<String> live = new TreeSet<>();
    for (ObjectNode pod : world().views().pods(null)) {
      live.add(Meta.namespace(pod) + "/" + Meta.name(pod));
    }
    assertEquals(live, new TreeSet<>(pods), "the pods kuik plan printed, and those of the cluster");
  }

  private Path folder(String name) {
    Path folder = state.manifests.get(name);
    if (folder == null) {
      throw new IllegalStateException(
          "no manifests " + name + ": start with 'Given the manifests " + name + ":'");
    }
    return folder;
  }
}
