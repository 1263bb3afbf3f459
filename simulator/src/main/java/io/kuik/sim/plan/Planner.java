package io.kuik.sim.plan;

import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.plan.Manifests.Manifest;
import io.kuik.sim.plan.PlanReport.Problem;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.registry.Registries;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs {@code kuik plan}: the manifests applied, as an administrator with {@code kubectl create}
 * would, to a simulated cluster running the chart's admission policy and RBAC, the production
 * syncer of each instance and the production webhook of the first; then the world runs on its
 * virtual clock until it goes quiet, and {@link PlanFindings} reads what it did.
 *
 * <p>Order of creation: namespaces, Secrets, routing resources, a few seconds for the informers to
 * see them, then pods and Deployments (one pod each, from the template): the steady state in which
 * a pod meets resources that already exist.
 */
public final class Planner {

  /** One world per plan; the seed only names the run, nothing in a plan draws from it. */
  static final long SEED = 17L;

  /** Quiet: no write other than an Event for this long. */
  static final Duration QUIET = Duration.ofMinutes(1);

  /** The longest a plan runs the world, in virtual time (a pod that never pulls never settles). */
  static final Duration LIMIT = Duration.ofMinutes(15);

  private static final Duration STEP = Duration.ofSeconds(5);

  private final PlanSettings settings;
  private final KuikWorld world;
  private final List<Problem> refused = new ArrayList<>();
  private final Map<String, String> podSources = new LinkedHashMap<>();
  private final List<String> deployments = new ArrayList<>();

  private Planner(PlanSettings settings) {
    this.settings = settings;
    this.world = new KuikWorld(SEED, ChartFiles.bundled());
  }

  /** Plans the manifests on a fresh simulated cluster. */
  public static PlanReport plan(Manifests.Set manifests, PlanSettings settings) {
    return new Planner(settings).run(manifests);
  }

  private PlanReport run(Manifests.Set manifests) {
    Registries registries = world.cluster().registries();
    registries.serveEverything();
    settings.registriesDown().forEach(host -> registries.registry(host).down());
    providers(manifests);
    PlanSettings.Instance first = settings.instances().get(0);
    world.install().install(first.namespace(), first.namespacesByDefault());
    for (PlanSettings.Instance other :
        settings.instances().subList(1, settings.instances().size())) {
      world.install().installAnotherInstance(other.namespace(), other.namespacesByDefault());
    }
    world.pass(Duration.ofSeconds(1));

    manifests.namespaces().forEach(this::namespace);
    manifests.secrets().forEach(this::secret);
    manifests.routingResources().forEach(m -> create(m, m.object()));
    world.pass(Duration.ofSeconds(5));

    if (settings.originalDown()) {
      manifests.pods().forEach(m -> originalsDown(m.object().path("spec")));
      manifests
          .deployments()
          .forEach(m -> originalsDown(m.object().path("spec").path("template").path("spec")));
    }
    manifests.pods().forEach(this::pod);
    manifests.deployments().forEach(this::deployment);
    quiesce();

    List<Problem> problems = new ArrayList<>(manifests.problems());
    problems.addAll(refused);
    java.util.Set<String> declared = new java.util.TreeSet<>(manifests.declaredNamespaces());
    settings.instances().forEach(instance -> declared.add(instance.namespace()));
    return new PlanFindings(world, podSources, deployments, declared)
        .report(problems, manifests.ignored());
  }

  /**
   * Every provider the manifests' entries name is declared, for the registries they name, with a
   * simulated cloud that answers at once: what the plan shows of a provider entry is then what the
   * syncer writes once its plugin has minted, the credential itself being minted at run time.
   */
  private void providers(Manifests.Set manifests) {
    Map<String, java.util.Set<String>> hosts = new java.util.TreeMap<>();
    for (Manifests.Manifest manifest : manifests.routingResources()) {
      for (tools.jackson.databind.JsonNode entry : entries(manifest.object())) {
        String provider = entry.path("auth").path("provider").asString("");
        String path =
            entry.has("repository")
                ? entry.path("repository").asString("")
                : entry.has("repositoryGroup")
                    ? entry.path("repositoryGroup").asString("")
                    : entry.path("path").asString("");
        if (!provider.isEmpty() && path.contains("/")) {
          hosts.computeIfAbsent(provider, p -> new java.util.TreeSet<>()).add(path.split("/")[0]);
        }
      }
    }
    hosts.forEach(
        (provider, registries) -> {
          world.providers().cloud(provider, registries.iterator().next()).latency(Duration.ZERO);
          registries.forEach(host -> world.providers().declare(provider, host));
        });
  }

  private static List<tools.jackson.databind.JsonNode> entries(
      tools.jackson.databind.node.ObjectNode resource) {
    List<tools.jackson.databind.JsonNode> entries = new ArrayList<>();
    resource.path("spec").path("alternatives").forEach(entries::add);
    tools.jackson.databind.JsonNode pull = resource.path("spec").path("destination").path("pull");
    if (!pull.isMissingNode()) {
      tools.jackson.databind.node.ObjectNode mirror =
          tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
      mirror.set("auth", pull.path("auth"));
      mirror.set("path", resource.path("spec").path("destination").path("path"));
      entries.add(mirror);
    }
    return entries;
  }

  // ---- applying the manifests ---------------------------------------------------------------

  /** A namespace that already exists (default, an install namespace) gets the labels merged. */
  private void namespace(Manifest manifest) {
    ObjectNode object = manifest.object();
    String name = manifest.name();
    if (!name.isEmpty()
        && world
            .cluster()
            .api()
            .find(KuikWorld.ADMIN, ResourceType.NAMESPACE, null, name)
            .isPresent()) {
      ObjectNode patch = Json.object();
      ObjectNode meta = patch.putObject("metadata");
      for (String field : List.of("labels", "annotations")) {
        JsonNode value = object.path("metadata").path(field);
        if (value.isObject()) {
          meta.set(field, value);
        }
      }
      attempt(
          manifest,
          () ->
              world
                  .cluster()
                  .api()
                  .mergePatch(
                      KuikWorld.ADMIN,
                      ResourceType.NAMESPACE,
                      null,
                      name,
                      patch,
                      "kubectl-client-side-apply"));
      return;
    }
    create(manifest, object);
  }

  /** A Secret without a namespace stands for the copy every instance holds in its own. */
  private void secret(Manifest manifest) {
    if (manifest.namespace() != null) {
      create(manifest, manifest.object());
      return;
    }
    for (PlanSettings.Instance instance : settings.instances()) {
      ObjectNode copy = manifest.object().deepCopy();
      ((ObjectNode) copy.get("metadata")).put("namespace", instance.namespace());
      create(manifest, copy);
    }
  }

  private void pod(Manifest manifest) {
    ObjectNode object = inNamespace(manifest);
    String where = manifest.namespace() == null ? "default" : manifest.namespace();
    podSources.put(where + "/" + manifest.name(), "Pod " + where + "/" + manifest.name());
    create(manifest, object);
  }

  private void deployment(Manifest manifest) {
    String namespace = manifest.namespace() == null ? "default" : manifest.namespace();
    JsonNode template = manifest.object().path("spec").path("template");
    if (!template.isObject() || manifest.name().isEmpty()) {
      refused.add(
          new Problem(
              "Deployment " + namespace + "/" + manifest.name(),
              "Invalid",
              manifest.source() + ": a Deployment needs metadata.name and spec.template"));
      return;
    }
    String key = namespace + "/" + manifest.name();
    if (deployments.contains(key)) {
      refused.add(
          new Problem(
              "Deployment " + key,
              "AlreadyExists",
              manifest.source() + ": deployments.apps \"" + manifest.name() + "\" already exists"));
      return;
    }
    deployments.add(key);
    world.workloads().deployment(namespace, manifest.name(), (ObjectNode) template, 1);
  }

  private ObjectNode inNamespace(Manifest manifest) {
    ObjectNode object = manifest.object().deepCopy();
    if (manifest.namespace() == null && object.path("metadata").isObject()) {
      ((ObjectNode) object.get("metadata")).put("namespace", "default");
    }
    return object;
  }

  private void create(Manifest manifest, ObjectNode object) {
    attempt(manifest, () -> world.objects().create(object));
  }

  private void attempt(Manifest manifest, Runnable request) {
    try {
      request.run();
    } catch (ApiException refusal) {
      String namespace = manifest.namespace();
      refused.add(
          new Problem(
              manifest.kind() + " " + (namespace == null ? "" : namespace + "/") + manifest.name(),
              refusal.reason(),
              refusal.getMessage()));
    }
  }

  /** Takes every container's original image down, by repository (see {@link PlanSettings}). */
  private void originalsDown(JsonNode podSpec) {
    for (String list : List.of("initContainers", "containers")) {
      for (JsonNode container : podSpec.path(list)) {
        String image = container.path("image").asString("");
        try {
          ImageReference reference = ImageReference.parse(image);
          world
              .cluster()
              .registries()
              .registry(reference.registry())
              .downRepository(reference.path());
        } catch (InvalidImageReferenceException unparsable) {
          // The API server or the webhook reports it; nothing to take down.
        }
      }
    }
  }

  // ---- running until quiet ------------------------------------------------------------------

  /**
   * Runs the world until nothing but Events has been written for {@link #QUIET}, or {@link #LIMIT}.
   */
  private void quiesce() {
    Instant start = world.now();
    long writes = writes();
    Instant lastWrite = world.now();
    while (Duration.between(start, world.now()).compareTo(LIMIT) < 0) {
      world.pass(STEP);
      long now = writes();
      if (now != writes) {
        writes = now;
        lastWrite = world.now();
      } else if (Duration.between(lastWrite, world.now()).compareTo(QUIET) >= 0) {
        return;
      }
    }
  }

  private long writes() {
    return world.cluster().trace().requests().stream()
        .filter(TraceRecord.Request::succeeded)
        .filter(r -> !r.kind().reads())
        .filter(r -> !r.target().isA(Resource.EVENTS))
        .count();
  }
}
