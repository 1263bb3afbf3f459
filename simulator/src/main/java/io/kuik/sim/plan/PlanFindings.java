package io.kuik.sim.plan;

import io.kuik.model.DockerConfig;
import io.kuik.model.RegistryCredential;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.SecretNames;
import io.kuik.routing.ContainerDecision;
import io.kuik.routing.RoutingDecision;
import io.kuik.sim.actors.Deployments;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.hosts.WebhookHost;
import io.kuik.sim.plan.PlanReport.Candidate;
import io.kuik.sim.plan.PlanReport.InjectedSecret;
import io.kuik.sim.plan.PlanReport.Key;
import io.kuik.sim.plan.PlanReport.PlannedContainer;
import io.kuik.sim.plan.PlanReport.PlannedPod;
import io.kuik.sim.plan.PlanReport.Problem;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import io.kuik.syncer.Targeting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads what the simulated cluster did, once it went quiet, into a {@link PlanReport}: the stored
 * {@code kuik-inject-*} Secrets, the pods as admitted (with the webhook's own decision for each),
 * and what a user would see go wrong ({@link PlanProblems}).
 *
 * <p>It reads the administrator's view of the store ({@link ClusterState}), which leaves no trace,
 * and parses routing resources and docker configs with the production model only to name things
 * (which entry a key belongs to); every decision shown was taken by the production classes.
 */
final class PlanFindings {

  private final KuikWorld world;
  private final ClusterState state;
  private final List<Targeting> instances;
  private final StoredRouting stored;

  /**
   * The namespaces every cluster starts with
   * (https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/#initial-namespaces).
   */
  static final Set<String> CLUSTER_NAMESPACES =
      Set.of("default", "kube-node-lease", "kube-public", "kube-system");

  private final Map<String, String> podSources;
  private final List<String> deployments;
  private final Set<String> declared;

  /**
   * @param podSources the manifest of each pod created directly, by {@code namespace/name}
   * @param deployments the Deployments created, as {@code namespace/name}
   * @param declared the namespaces the manifests and the instances name: the only ones shown (the
   *     simulated cluster has others of its own, such as Velero's)
   */
  PlanFindings(
      KuikWorld world,
      Map<String, String> podSources,
      List<String> deployments,
      Set<String> declared) {
    this.world = world;
    this.state = world.cluster().api().state();
    this.instances = world.install().instances();
    this.stored = new StoredRouting(state, instances);
    this.podSources = new TreeMap<>(podSources);
    this.deployments = List.copyOf(deployments);
    this.declared = Set.copyOf(declared);
  }

  PlanReport report(List<Problem> earlier, List<String> ignored) {
    Map<String, String> sources = new TreeMap<>(podSources);
    List<Problem> problems = new ArrayList<>(earlier);
    deploymentPods(sources, problems);
    List<PlannedPod> pods = pods(sources);
    problems.addAll(new PlanProblems(world, stored, declared).of(pods));
    List<Problem> unique = new ArrayList<>(new LinkedHashSet<>(problems));
    return new PlanReport(
        instances.stream()
            .map(t -> t.instance() + " (namespaces by default: " + t.namespacesByDefault() + ")")
            .toList(),
        secrets().stream().filter(secret -> declared.contains(secret.namespace())).toList(),
        pods,
        unique,
        ignored,
        secrets().stream()
            .map(InjectedSecret::namespace)
            .filter(CLUSTER_NAMESPACES::contains)
            .filter(namespace -> !declared.contains(namespace))
            .distinct()
            .sorted()
            .toList());
  }

  // ---- Secrets --------------------------------------------------------------------------------

  private List<InjectedSecret> secrets() {
    List<InjectedSecret> out = new ArrayList<>();
    List<ObjectNode> all = new ArrayList<>(state.list(ResourceType.SECRET, null));
    all.sort(Comparator.comparing(Meta::namespace).thenComparing(Meta::name));
    for (ObjectNode secret : all) {
      if (!Meta.name(secret).startsWith(SecretNames.INJECT_PREFIX)) {
        continue;
      }
      String owner = owner(secret);
      Optional<DockerConfig> content = StoredRouting.dockerConfig(secret);
      List<Key> keys = new ArrayList<>();
      content.ifPresent(
          config ->
              config
                  .auths()
                  .forEach((key, credential) -> keys.add(origin(secret, owner, key, credential))));
      out.add(new InjectedSecret(Meta.namespace(secret), Meta.name(secret), owner, keys));
    }
    return out;
  }

  private static String owner(ObjectNode secret) {
    return Meta.ownerReferences(secret).stream()
        .filter(ref -> StoredRouting.KUIK_API_VERSION.equals(Json.text(ref, "apiVersion")))
        .map(ref -> Json.text(ref, "kind") + "/" + Json.text(ref, "name"))
        .findFirst()
        .orElse("?");
  }

  /**
   * Where a key's credential came from: the entry of the owning resource whose auths key it is
   * names the {@code secretRef}, read in the install namespace of the first instance serving the
   * Secret's namespace; the source keys are those holding the very same credential.
   */
  private Key origin(ObjectNode secret, String owner, String key, RegistryCredential credential) {
    Optional<String> provider =
        stored.resource(owner).stream()
            .flatMap(r -> r.entries().stream())
            .filter(e -> e.authsKey().equals(key) && e.auth() != null)
            .map(e -> e.auth().provider())
            .filter(name -> name != null)
            .findFirst();
    if (provider.isPresent()) {
      return new Key(key, Key.MINTED_BY + provider.get(), List.of());
    }
    Optional<String> secretRef =
        stored.resource(owner).stream()
            .flatMap(r -> r.entries().stream())
            .filter(e -> e.authsKey().equals(key) && e.auth() != null)
            .map(e -> e.auth().secretRefName())
            .filter(name -> name != null)
            .findFirst();
    Optional<String> instance = stored.servingInstance(Meta.namespace(secret));
    if (secretRef.isEmpty() || instance.isEmpty()) {
      return new Key(key, null, List.of());
    }
    String source = instance.get() + "/" + secretRef.get();
    List<String> sourceKeys =
        state
            .get(ResourceType.SECRET, instance.get(), secretRef.get())
            .flatMap(StoredRouting::dockerConfig)
            .map(
                config ->
                    config.auths().entrySet().stream()
                        .filter(e -> e.getValue().equals(credential))
                        .map(Map.Entry::getKey)
                        .toList())
            .orElse(List.of());
    return new Key(key, source, sourceKeys);
  }

  // ---- pods -----------------------------------------------------------------------------------

  private void deploymentPods(Map<String, String> sources, List<Problem> problems) {
    Deployments deployments = world.cluster().deployments();
    for (String key : this.deployments) {
      String[] nsAndName = key.split("/", 2);
      List<ObjectNode> pods =
          deployments.find(nsAndName[0], nsAndName[1]).map(d -> d.pods()).orElse(List.of());
      for (ObjectNode pod : pods) {
        sources.put(Meta.namespace(pod) + "/" + Meta.name(pod), "Deployment " + key);
      }
      if (pods.isEmpty()) {
        problems.add(
            new Problem(
                "Deployment " + key,
                "FailedCreate",
                lastRefusedPodCreate(nsAndName[0], nsAndName[1])
                    .orElse("the ReplicaSet controller created no pod")));
      }
    }
  }

  /** What the API server answered the ReplicaSet controller's last refused pod creation. */
  private Optional<String> lastRefusedPodCreate(String namespace, String deployment) {
    Actor actor = world.cluster().trace().actorOf(Deployments.IDENTITY);
    String prefix = deployment + "-";
    TraceRecord.Request last = null;
    for (TraceRecord.Request r : world.cluster().trace().requests()) {
      if (r.actor().equals(actor)
          && r.kind() == RequestKind.CREATE
          && r.target().isA(Resource.PODS)
          && namespace.equals(r.target().namespace())
          && r.target().name().startsWith(prefix)
          && !r.succeeded()) {
        last = r;
      }
    }
    return Optional.ofNullable(last).map(TraceRecord.Request::message);
  }

  private List<PlannedPod> pods(Map<String, String> sources) {
    Map<String, WebhookHost.Admission> admissions = new TreeMap<>();
    for (WebhookHost.Admission admission : world.install().webhook().admissions()) {
      admissions.put(admission.namespace() + "/" + admission.pod(), admission);
    }
    List<PlannedPod> out = new ArrayList<>();
    for (Map.Entry<String, String> source : sources.entrySet()) {
      String[] nsAndName = source.getKey().split("/", 2);
      Optional<ObjectNode> stored = state.get(ResourceType.POD, nsAndName[0], nsAndName[1]);
      if (stored.isEmpty()) {
        continue; // refused: reported with the manifest
      }
      WebhookHost.Admission admission = admissions.get(source.getKey());
      out.add(
          plannedPod(
              stored.get(), source.getValue(), admission == null ? null : admission.decision()));
    }
    return out;
  }

  private PlannedPod plannedPod(ObjectNode pod, String source, RoutingDecision decision) {
    Map<String, String> originals =
        RewriteAnnotations.readMap(Meta.annotations(pod), RewriteAnnotations.ORIGINAL_IMAGES);
    List<PlannedContainer> containers = new ArrayList<>();
    for (String list : List.of("containers", "initContainers")) {
      for (JsonNode container : pod.path("spec").path(list)) {
        String name = container.path("name").asString("");
        String runs = container.path("image").asString("");
        String submitted = originals.getOrDefault(name, runs);
        containers.add(plannedContainer(name, submitted, runs, decision));
      }
    }
    String phase = world.cluster().kubelet().phase(Meta.namespace(pod), Meta.name(pod));
    return new PlannedPod(
        Meta.namespace(pod),
        Meta.name(pod),
        source,
        phase == null ? "Pending" : phase,
        containers,
        decision == null ? List.of() : decision.addedPullSecrets());
  }

  private static PlannedContainer plannedContainer(
      String name, String submitted, String runs, RoutingDecision decision) {
    if (decision == null) {
      return new PlannedContainer(name, submitted, List.of(), runs, "not admitted by kuik");
    }
    if (decision.skipped() != null) {
      return new PlannedContainer(name, submitted, List.of(), runs, decision.skipped());
    }
    for (ContainerDecision container : decision.containers()) {
      if (container.container().name().equals(name)) {
        List<Candidate> candidates =
            container.candidates().stream()
                .map(
                    c ->
                        new Candidate(
                            c.image().toString(),
                            c.isOriginal()
                                ? "original"
                                : c.by()
                                    + " "
                                    + c.entry().field()
                                    + " "
                                    + c.resource().rewritePolicy().value(),
                            c.equals(container.chosen())))
                .toList();
        return new PlannedContainer(name, submitted, candidates, runs, container.reason());
      }
    }
    String why = decision.notCovered().get(name);
    return new PlannedContainer(
        name, submitted, List.of(), runs, why == null ? "no routing resource covers it" : why);
  }
}
