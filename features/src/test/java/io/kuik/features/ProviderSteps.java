package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.kuik.model.DockerConfig;
import io.kuik.model.ProviderCredential;
import io.kuik.model.RegistryCredential;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.trace.Note;
import io.kuik.sim.world.registry.CloudProvider;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Provider credentials: the simulated clouds and their plugins, the chart's providers, their
 * outages and rotations, and the validity bound the syncer keeps.
 */
public class ProviderSteps {

  private final ScenarioState state;

  public ProviderSteps(ScenarioState state) {
    this.state = state;
  }

  private KuikWorld world() {
    return state.world();
  }

  @Given("the cloud provider {word} issues {int}-hour tokens for the registry {word}")
  public void cloud(String plugin, int hours, String host) {
    world().providers().cloud(plugin, host).validity(Duration.ofHours(hours));
  }

  @Given("the cloud provider {word} takes {int} seconds to answer")
  public void latency(String plugin, int seconds) {
    world().providers().cloud(plugin).latency(Duration.ofSeconds(seconds));
  }

  @Given("the chart's providers list {word} for {word}")
  public void declared(String plugin, String matchImages) {
    world().providers().declare(plugin, matchImages);
  }

  @Given("^the registry (\\S+) serves (\\S+) to the tokens of (\\S+)$")
  public void servesToTokens(String host, String image, String plugin) {
    world().providers().cloud(plugin, host);
    world().actions().registryServesAnonymously(host, List.of(image));
  }

  @Given("kuik is installed in the namespace {word} with its providers")
  public void installed(String namespace) {
    world().install().install(namespace);
    world().pass(Duration.ofSeconds(1));
  }

  @Given(
      "kuik is installed in the namespace {word} with its providers and pull secret first, the gate bound to {int} seconds")
  public void installedFirst(String namespace, int seconds) {
    world().install().installWithPullSecretFirst(namespace, Duration.ofSeconds(seconds));
  }

  @Given("the bound of provider credentials is watched")
  public void watched() {
    world().providers().watchTheBound();
  }

  @When(
      "^a pod using (\\S+) is created in ([a-z0-9-]+) every (.+), each deleted (.+) later, for (.+)$")
  public void churn(String image, String namespace, String every, String lifetime, String total) {
    world()
        .workloads()
        .churn(
            namespace,
            "web",
            image,
            Durations.parse(every),
            Durations.parse(lifetime),
            Durations.parse(total));
  }

  @When("the syncer crashes and restarts every {int} hours for {int} hours")
  public void restarts(int every, int total) {
    world()
        .faults()
        .syncerCrashesAndRestartsEvery(Duration.ofHours(every), Duration.ofHours(total));
  }

  @When("^the cloud provider (\\S+) is down for (.+)$")
  public void downFor(String plugin, String duration) {
    world().providers().cloud(plugin).downFor(Durations.parse(duration));
  }

  @When(
      "^the cloud provider (\\S+) (hangs|answers garbage|answers for another registry) from now on$")
  public void misbehaves(String plugin, String how) {
    CloudProvider.Mode mode =
        switch (how) {
          case "hangs" -> CloudProvider.Mode.HANGS;
          case "answers garbage" -> CloudProvider.Mode.GARBAGE;
          default -> CloudProvider.Mode.ELSEWHERE;
        };
    world().providers().cloud(plugin).mode(mode);
  }

  @When("the configuration of the provider {word} changes to the arguments {string}")
  public void rotated(String plugin, String args) {
    world().providers().rotate(plugin, List.of(args.split(" ")));
  }

  @Then("no pull from {word} must have been refused")
  public void noPullRefused(String host) {
    List<Note.RegistryNote> refused = world().providers().refusedPulls(host);
    assertEquals(List.of(), refused, "pulls refused for want of a valid credential");
  }

  @Then("the plugin {word} must have run {int} time(s)")
  public void runs(String plugin, int times) {
    assertEquals(times, world().providers().runs(plugin), "runs of " + plugin);
  }

  @Then("no Secret must ever have held a provider credential with less than minValidity left")
  public void boundKept() {
    List<?> broken = world().providers().boundBroken();
    assertEquals(
        List.of(), broken.subList(0, Math.min(5, broken.size())), broken.size() + " violations");
  }

  @Then(
      "^([a-z0-9-]+)'s ([a-z0-9.-]+) must hold a token of (\\S+) for (\\S+) with more than (.+) left$")
  public void holdsAToken(String namespace, String secret, String plugin, String key, String left) {
    RegistryCredential credential = credential(namespace, secret, key);
    Instant expires =
        world()
            .providers()
            .expiryOf(credential.password())
            .orElseThrow(() -> new AssertionError("not a token of " + plugin + ": " + key));
    Duration remaining = Duration.between(world().now(), expires);
    assertTrue(
        remaining.compareTo(Durations.parse(left)) > 0,
        secret + " holds a token with " + remaining + " left");
  }

  @Then("^([a-z0-9-]+)'s ([a-z0-9.-]+) must hold no credential for (\\S+)$")
  public void holdsNone(String namespace, String secret, String key) {
    DockerConfig content = world().views().dockerConfigOf(namespace, secret);
    assertFalse(content.auths().containsKey(key), secret + " holds " + content.auths().keySet());
  }

  @Then(
      "^([a-z0-9-]+) must keep the credential of (\\S+) for the registry (\\S+), expiring (\\d+) hours after it was minted$")
  public void kept(String namespace, String plugin, String registry, int hours) {
    ProviderCredential kept = keptCredential(namespace, plugin, registry);
    assertEquals(Duration.ofHours(hours), kept.validity(), kept.toString());
  }

  private ProviderCredential keptCredential(String namespace, String plugin, String registry) {
    return world()
        .providers()
        .kept(namespace, plugin, registry)
        .orElseThrow(() -> new AssertionError(namespace + " keeps no credential of " + plugin));
  }

  private RegistryCredential credential(String namespace, String secret, String key) {
    DockerConfig content = world().views().dockerConfigOf(namespace, secret);
    return Optional.ofNullable(content.auths().get(key))
        .orElseThrow(() -> new AssertionError(secret + " holds " + content.auths().keySet()));
  }
}
