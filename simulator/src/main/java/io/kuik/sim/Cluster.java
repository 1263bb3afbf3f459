package io.kuik.sim;

import io.kuik.sim.actors.ComponentDeployments;
import io.kuik.sim.actors.Deployments;
import io.kuik.sim.actors.Helm;
import io.kuik.sim.actors.KubectlReplace;
import io.kuik.sim.actors.People;
import io.kuik.sim.actors.Velero;
import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.chart.RenderedRelease;
import io.kuik.sim.client.Informer;
import io.kuik.sim.faults.Outages;
import io.kuik.sim.faults.PolicyAbsence;
import io.kuik.sim.faults.PolicyFailure;
import io.kuik.sim.faults.RegistryOutages;
import io.kuik.sim.faults.WatchFaults;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.admission.PolicyAdmission;
import io.kuik.sim.world.admission.RbacAuthorizer;
import io.kuik.sim.world.admission.SystemRbac;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.kubelet.Kubelet;
import io.kuik.sim.world.kubelet.PodFeed;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.registry.Registries;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * One simulated world, assembled from a seed: the event loop and trace, the API server with RBAC
 * over the built-in roles and validating admission by the stored policies, the registries, a
 * started kubelet, the actors of the stories (a started Deployment controller, alice, kubectl,
 * Velero with its ServiceAccount, Helm) and the fault modules. The API server starts with the
 * namespaces every cluster has ({@code default}, {@code kube-system}, ...). It only wires; the
 * behaviour lives in the parts.
 */
public final class Cluster {

  /** The administrator who installs things: a person in {@code system:masters}. */
  public static final Identity ADMIN = Identity.person("admin", "system:masters");

  private final EventLoop loop;
  private final Trace trace;
  private final ApiServer api;
  private final PolicyAdmission policy;
  private final Registries registries;
  private final Kubelet kubelet;
  private final Deployments deployments;
  private final ComponentDeployments componentDeployments;
  private final People people;
  private final KubectlReplace kubectl;
  private final Velero velero;
  private final Helm helm;
  private final Outages outages;
  private final PolicyFailure policyFailure;
  private final PolicyAbsence policyAbsence;
  private final WatchFaults watchFaults;
  private final RegistryOutages registryOutages;
  // null: the repository's chart/, found when the first release is installed.
  private final ChartFiles chart;

  private Cluster(long seed, ChartFiles chart) {
    this.chart = chart;
    loop = new EventLoop(seed);
    trace = new Trace(loop.start());
    api = new ApiServer(loop, trace);
    // Stored before RBAC is switched on: the bindings that give the administrator its power.
    SystemRbac.objects().forEach(o -> api.create(ADMIN, o));
    Deployments.rbac().forEach(o -> api.create(ADMIN, o));
    ComponentDeployments.rbac().forEach(o -> api.create(ADMIN, o));
    Velero.installObjects().forEach(o -> api.create(ADMIN, o));
    api.setAuthorizer(new RbacAuthorizer(api.state()));
    policy = new PolicyAdmission(api.state());
    api.setValidatingAdmission(policy);
    registries = new Registries(loop, trace);
    kubelet = new Kubelet(api, registries, podFeed(api));
    kubelet.start();
    deployments = new Deployments(api);
    deployments.start();
    componentDeployments = new ComponentDeployments(api);
    people = new People(api);
    kubectl = new KubectlReplace(api, ADMIN);
    velero = new Velero(api);
    helm = new Helm(api);
    outages = new Outages(api);
    policyFailure = new PolicyFailure(policy, loop, trace);
    policyAbsence = new PolicyAbsence(loop, trace);
    watchFaults = WatchFaults.on(api);
    registryOutages = new RegistryOutages(registries);
  }

  /** A world whose releases are installed from the repository's {@code chart/} folder. */
  public static Cluster create(long seed) {
    return new Cluster(seed, null);
  }

  /** A world whose releases are installed from these chart files (the jar's bundled copy, say). */
  public static Cluster create(long seed, ChartFiles chart) {
    return new Cluster(seed, Objects.requireNonNull(chart, "chart"));
  }

  /**
   * {@code helm install}, reduced to what the simulated cluster enforces: Helm renders the chart
   * for the release ({@link ChartFiles#render}), and the cluster gets the chart's CRDs (when
   * missing), the release namespace (when missing), the ServiceAccounts, every Role, ClusterRole
   * and binding, the components' Deployments and the ValidatingAdmissionPolicies with their
   * bindings of that render, created as {@link #ADMIN} with the annotations Helm puts on every
   * object it installs ({@link #helmOwned}). What the simulator does not model (Services, Secrets
   * of TLS, PodDisruptionBudgets, NetworkPolicies, monitors) is left out.
   *
   * @return the objects as stored, in creation order
   */
  public List<ObjectNode> install(Release release) {
    List<ObjectNode> stored = installWithoutThePolicy(release);
    stored.addAll(installPolicy(release));
    return stored;
  }

  /** The kinds of a render the simulated cluster installs before the policies, in this order. */
  private static final List<String> INSTALLED_FIRST =
      List.of("ServiceAccount", "ClusterRole", "Role", "ClusterRoleBinding", "RoleBinding");

  /** The policies, which Helm 3 creates last. */
  private static final List<String> POLICIES =
      List.of("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding");

  /**
   * {@link #install} but the ValidatingAdmissionPolicies and their bindings, which Helm 3 creates
   * last: kinds missing from its install order go after every known kind, Deployments included
   * (helm/helm {@code pkg/releaseutil/kind_sorter.go}, {@code InstallOrder}), so the syncer's pods
   * can start before them. {@link #installPolicy} creates them.
   */
  public List<ObjectNode> installWithoutThePolicy(Release release) {
    RenderedRelease rendered = chart().render(release);
    List<ObjectNode> stored = new ArrayList<>(installCrds());
    if (api.find(ADMIN, ResourceType.NAMESPACE, null, release.namespace()).isEmpty()) {
      stored.add(api.create(ADMIN, object("v1", "Namespace", null, release.namespace())));
    }
    for (String kind : INSTALLED_FIRST) {
      for (ObjectNode object : rendered.ofKind(kind)) {
        if (!isHook(object)) {
          stored.add(api.create(ADMIN, helmOwned(object, release)));
        }
      }
    }
    // A ServiceAccount the values name but the chart does not create is the user's: brought along.
    for (String account :
        List.of(release.syncerServiceAccount(), release.webhookServiceAccount())) {
      if (api.find(ADMIN, ResourceType.SERVICE_ACCOUNT, release.namespace(), account).isEmpty()) {
        stored.add(api.create(ADMIN, object("v1", "ServiceAccount", release.namespace(), account)));
      }
    }
    Map<String, String> deployments = new LinkedHashMap<>();
    for (String command : List.of("syncer", "webhook")) {
      rendered
          .runner(command)
          .ifPresent(
              d ->
                  deployments.put(
                      d.path("metadata")
                          .path("labels")
                          .path("app.kubernetes.io/component")
                          .asString(),
                      Meta.name(d)));
    }
    componentDeployments.install(ADMIN, release.name(), release.namespace(), deployments);
    trace.alias(
        Identity.serviceAccount(release.namespace(), release.syncerServiceAccount()), "syncer");
    trace.alias(
        Identity.serviceAccount(release.namespace(), release.webhookServiceAccount()), "webhook");
    return stored;
  }

  /**
   * The release's ValidatingAdmissionPolicies and their bindings, those missing created as {@link
   * #ADMIN} (an install, or an upgrade that puts back what someone deleted).
   *
   * @return the objects created now
   */
  public List<ObjectNode> installPolicy(Release release) {
    List<ObjectNode> stored = new ArrayList<>();
    RenderedRelease rendered = chart().render(release);
    for (String kind : POLICIES) {
      for (ObjectNode object : rendered.ofKind(kind)) {
        ResourceType type =
            kind.equals("ValidatingAdmissionPolicy")
                ? ResourceType.VALIDATING_ADMISSION_POLICY
                : ResourceType.VALIDATING_ADMISSION_POLICY_BINDING;
        if (!isHook(object) && api.find(ADMIN, type, null, Meta.name(object)).isEmpty()) {
          stored.add(api.create(ADMIN, helmOwned(object, release)));
        }
      }
    }
    return stored;
  }

  private static boolean isHook(ObjectNode object) {
    return object.path("metadata").path("annotations").has(RenderedRelease.HOOK);
  }

  /**
   * The chart's CustomResourceDefinitions, created as {@link #ADMIN} unless they exist (the chart
   * renders them as templates, so {@code helm install} creates them with the release).
   *
   * @return the CRDs created now
   */
  public List<ObjectNode> installCrds() {
    List<ObjectNode> created = new ArrayList<>();
    for (ObjectNode crd : chart().crds()) {
      String name = crd.path("metadata").path("name").asString();
      if (api.find(ADMIN, ResourceType.CUSTOM_RESOURCE_DEFINITION, null, name).isEmpty()) {
        created.add(api.create(ADMIN, crd));
      }
    }
    return created;
  }

  /**
   * {@code helm upgrade --set syncer.ownerReferencesPermissionEnforcement=true} of an installed
   * release: the ClusterRole and binding that give its syncer delete on Secrets.
   */
  public List<ObjectNode> grantOwnerReferencesPermission(Release release) {
    List<ObjectNode> stored = new ArrayList<>();
    chart()
        .load(ChartFiles.SYNCER_OWNER_REFERENCES_RBAC, release)
        .forEach(o -> stored.add(api.create(ADMIN, o)));
    return stored;
  }

  /**
   * {@code helm upgrade} of a release whose values changed (its peers, say), reduced as {@link
   * #install} is: Helm renders the chart again, and the RBAC and policies it renders are written
   * over what the install stored, or created, as {@link #ADMIN} (Helm's three-way merge ends in the
   * same objects).
   */
  public void upgrade(Release release) {
    RenderedRelease rendered = chart().render(release);
    List<String> kinds = new ArrayList<>(INSTALLED_FIRST);
    kinds.addAll(POLICIES);
    for (String kind : kinds) {
      for (ObjectNode object : rendered.ofKind(kind)) {
        if (isHook(object)) {
          continue;
        }
        ResourceType type =
            ResourceType.ofKind(Json.text(object, "apiVersion"), kind).orElseThrow();
        if (api.find(ADMIN, type, Meta.namespace(object), Meta.name(object)).isPresent()) {
          api.update(ADMIN, helmOwned(object, release));
        } else {
          api.create(ADMIN, helmOwned(object, release));
        }
      }
    }
  }

  /**
   * The object as Helm stores what it installs: with the annotations {@code
   * meta.helm.sh/release-name} and {@code meta.helm.sh/release-namespace} and the label {@code
   * app.kubernetes.io/managed-by: Helm} (Helm's pkg/action, {@code setMetadataVisitor}), by which
   * {@code kuik selftest} tells the release's objects from another's.
   */
  public static ObjectNode helmOwned(ObjectNode object, Release release) {
    ObjectNode meta = Json.child(object, "metadata");
    Json.child(meta, "labels").put("app.kubernetes.io/managed-by", "Helm");
    ObjectNode annotations = Json.child(meta, "annotations");
    annotations.put("meta.helm.sh/release-name", release.name());
    annotations.put("meta.helm.sh/release-namespace", release.namespace());
    return object;
  }

  /** The chart files releases are installed from: the given ones, else the repository's. */
  public ChartFiles chart() {
    return chart != null ? chart : ChartFiles.locate();
  }

  public EventLoop loop() {
    return loop;
  }

  public ApiServer api() {
    return api;
  }

  public Trace trace() {
    return trace;
  }

  /** The validating admission stage: the stored policies, and the switch to break one. */
  public PolicyAdmission policy() {
    return policy;
  }

  public Registries registries() {
    return registries;
  }

  public Kubelet kubelet() {
    return kubelet;
  }

  /** The ReplicaSet controller's side of Deployments. */
  public Deployments deployments() {
    return deployments;
  }

  /** The Deployments of kuik's own components, and the availability their status reports. */
  public ComponentDeployments componentDeployments() {
    return componentDeployments;
  }

  /** Alice, in {@code system:masters}. */
  public People people() {
    return people;
  }

  /** {@code kubectl replace} of every Secret, as {@link #ADMIN}. */
  public KubectlReplace kubectl() {
    return kubectl;
  }

  public Velero velero() {
    return velero;
  }

  public Helm helm() {
    return helm;
  }

  /** API-server outages (503). */
  public Outages outages() {
    return outages;
  }

  /** The admission policy failing to evaluate. */
  public PolicyFailure policyFailure() {
    return policyFailure;
  }

  /** The admission policy or its binding deleted for a while. */
  public PolicyAbsence policyAbsence() {
    return policyAbsence;
  }

  /** Watch events lost, late or reordered, and watches expiring. */
  public WatchFaults watchFaults() {
    return watchFaults;
  }

  /** Registries out of reach. */
  public RegistryOutages registryOutages() {
    return registryOutages;
  }

  /** The kubelet's informer on every pod, under the node's identity. */
  private static PodFeed podFeed(ApiServer api) {
    Informer informer =
        new Informer(
            api,
            Kubelet.IDENTITY,
            Kubelet.WATCHER,
            ResourceType.POD,
            null,
            LabelSelector.EVERYTHING,
            Duration.ZERO);
    return new PodFeed() {
      @Override
      public void listen(Listener listener) {
        informer.addHandler(
            new Informer.Handler() {
              @Override
              public void onAdd(ObjectNode pod) {
                listener.added(pod);
              }

              @Override
              public void onUpdate(ObjectNode old, ObjectNode pod) {
                listener.updated(pod);
              }

              @Override
              public void onDelete(ObjectNode last) {
                listener.deleted(last);
              }
            });
      }

      @Override
      public void start() {
        informer.start();
      }

      @Override
      public boolean hasSynced() {
        return informer.hasSynced();
      }
    };
  }

  private static ObjectNode object(String apiVersion, String kind, String namespace, String name) {
    ObjectNode object = Json.object();
    object.put("apiVersion", apiVersion);
    object.put("kind", kind);
    ObjectNode meta = object.putObject("metadata");
    meta.put("name", name);
    if (namespace != null) {
      meta.put("namespace", namespace);
    }
    return object;
  }
}
