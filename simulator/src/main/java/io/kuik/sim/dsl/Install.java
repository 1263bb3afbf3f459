package io.kuik.sim.dsl;

import io.kuik.selftest.SelftestCluster.Readyz;
import io.kuik.selftest.SelftestReport;
import io.kuik.selftest.SelftestSettings;
import io.kuik.sim.Cluster;
import io.kuik.sim.actors.ComponentDeployments;
import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.faults.PolicyFailure;
import io.kuik.sim.hosts.SelftestPod;
import io.kuik.sim.hosts.SimulatedSelftestCluster;
import io.kuik.sim.hosts.SyncerHost;
import io.kuik.sim.hosts.WebhookHost;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import io.kuik.syncer.SyncerSettings;
import io.kuik.syncer.Targeting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * The DSL's cluster setup, part one: kuik's releases as {@code helm install} leaves them, the
 * syncer and webhook processes they run, and the restarts with other flags that a redeploy makes.
 */
public final class Install {

  private final KuikWorld world;
  private Release release;
  private SyncerHost syncer;
  private final Map<String, SyncerHost> otherInstances = new LinkedHashMap<>();
  private final Map<String, Release> otherReleases = new LinkedHashMap<>();
  private WebhookHost webhook;

  Install(KuikWorld world) {
    this.world = world;
  }

  /**
   * Installs the chart's RBAC and policy for a release in {@code namespace} and starts the syncer.
   */
  public void install(String namespace) {
    install(namespace, true);
  }

  /**
   * Installs the first release, whose syncer serves namespaces with neither targeting label only
   * when {@code namespacesByDefault} (the chart's {@code syncer.namespacesByDefault}).
   */
  public void install(String namespace, boolean namespacesByDefault) {
    install(namespace, namespacesByDefault, true);
  }

  /**
   * Installs the first release as Helm 3 orders it: everything but the admission policy and its
   * binding, the syncer and the webhook started, and the policy and binding created {@code after}
   * later (helm/helm {@code pkg/releaseutil/kind_sorter.go} puts kinds it does not know last).
   */
  public void installWithThePolicyCreated(Duration after) {
    install("kuik-system", true, false);
    world
        .cluster()
        .loop()
        .schedule(after, "helm creates the admission policy", this::createThePolicy);
  }

  /**
   * Installs the first release in {@code namespace} with {@code pullSecretFirst.enabled=true} and
   * {@code pullSecretFirst.maxWait=maxWait}: the pod-write RBAC and its policy, the syncer
   * releasing gates, and the webhook gating pods and releasing those past the bound.
   */
  public void installWithPullSecretFirst(String namespace, Duration maxWait) {
    install(namespace, true, true, maxWait);
  }

  private void install(String namespace, boolean namespacesByDefault, boolean withPolicy) {
    install(namespace, namespacesByDefault, withPolicy, null);
  }

  private void install(
      String namespace, boolean namespacesByDefault, boolean withPolicy, Duration gateBound) {
    release = new Release("kuik", namespace);
    if (withPolicy) {
      world.cluster().install(release);
    } else {
      world.cluster().installWithoutThePolicy(release);
    }
    SyncerSettings settings = syncerSettings(namespace, namespacesByDefault);
    if (gateBound != null) {
      world.cluster().enablePullSecretFirst(release);
      settings = settings.withReleasesGates(true);
    }
    syncer =
        new SyncerHost(
                world.api(),
                SyncerHost.podIdentity(namespace, release.syncerServiceAccount()),
                settings)
            .writingOnlyUnder(SyncerHost.Bounds.ofRelease(release.name()))
            .tryingCredentialsOn(world.cluster().registries());
    syncer.reportAvailability(
        available(namespace, ComponentDeployments.syncer(release.fullname())));
    syncer.start();
    webhook =
        new WebhookHost(
            world.api(),
            SyncerHost.podIdentity(namespace, release.webhookServiceAccount()),
            namespace,
            world.cluster().registries(),
            KuikWorld.WEBHOOK_TIMEOUT);
    if (gateBound != null) {
      webhook.pullSecretFirst(gateBound);
    }
    webhook.reportAvailability(
        available(namespace, ComponentDeployments.webhook(release.fullname())));
    webhook.start();
  }

  /** What the Deployment controller reports of a component's process. */
  private java.util.function.Consumer<Boolean> available(String namespace, String deployment) {
    return ready -> world.cluster().componentDeployments().available(namespace, deployment, ready);
  }

  /**
   * Another kuik release, {@code namespace} its install namespace and release name, running a
   * second syncer instance that shards the cluster with the first
   * (docs/behaviour.md#namespace-targeting). As the README says to shard, every release lists the
   * others in {@code syncer.peers}: the new one lists the releases already there, and each of those
   * is upgraded to list it. It runs no webhook of its own here: the stories it serves are about
   * which instance writes.
   */
  public void installAnotherInstance(String namespace, boolean namespacesByDefault) {
    requireInstalled();
    List<Release.Peer> present = new ArrayList<>();
    present.add(release.asPeer());
    otherReleases.values().forEach(r -> present.add(r.asPeer()));
    Release other = new Release(namespace, namespace).withPeers(present);
    world.cluster().install(other);
    release = release.withPeers(List.of(other.asPeer()));
    world.cluster().upgrade(release);
    otherReleases.replaceAll(
        (ns, r) -> {
          Release upgraded = r.withPeers(List.of(other.asPeer()));
          world.cluster().upgrade(upgraded);
          return upgraded;
        });
    otherReleases.put(namespace, other);
    Identity identity = SyncerHost.podIdentity(namespace, other.syncerServiceAccount());
    world.cluster().trace().alias(identity, namespace + "-syncer");
    SyncerHost host =
        new SyncerHost(world.api(), identity, syncerSettings(namespace, namespacesByDefault))
            .writingOnlyUnder(SyncerHost.Bounds.ofRelease(other.name()))
            .tryingCredentialsOn(world.cluster().registries());
    host.reportAvailability(available(namespace, ComponentDeployments.syncer(other.fullname())));
    otherInstances.put(namespace, host);
    host.start();
  }

  /** Helm (or a person) creates the first release's admission policy and its binding. */
  public void createThePolicy() {
    world.cluster().installPolicy(requireInstalled());
  }

  /**
   * The first release's admission policy binding is deleted ({@code helm uninstall} deletes it with
   * everything else, while the syncer runs through its termination grace; or a person).
   */
  public void deleteThePolicyBinding() {
    world
        .api()
        .delete(
            KuikWorld.ADMIN,
            ResourceType.VALIDATING_ADMISSION_POLICY_BINDING,
            null,
            admissionPolicyName());
  }

  /** The first release's admission policy is deleted, its binding left. */
  public void deleteThePolicy() {
    world
        .api()
        .delete(
            KuikWorld.ADMIN, ResourceType.VALIDATING_ADMISSION_POLICY, null, admissionPolicyName());
  }

  /** The API server runs OwnerReferencesPermissionEnforcement, as OpenShift's does. */
  public void enforceOwnerReferencesPermission() {
    world.api().setOwnerReferencesPermissionEnforcement(true);
  }

  /** {@code helm upgrade --set syncer.ownerReferencesPermissionEnforcement=true}. */
  public void upgradeWithOwnerReferencesPermission() {
    world.cluster().grantOwnerReferencesPermission(requireInstalled());
  }

  /**
   * A kuik release in {@code namespace} (its release name too) that no other release lists in
   * {@code syncer.peers} and that lists none: its chart objects and ServiceAccounts only, no
   * process. Its syncer's identity is then a stranger to every other release's policy.
   */
  public void installUnlistedRelease(String namespace) {
    requireInstalled();
    world.cluster().install(new Release(namespace, namespace));
    // Its writes are not this world's syncer's: the every-scenario check must not count them.
    world.cluster().trace().alias(syncerIdentityOf(namespace), namespace + "-syncer");
  }

  /** The identity of the first release's webhook pod. */
  public Identity webhookIdentity() {
    Release installed = requireInstalled();
    return SyncerHost.podIdentity(installed.namespace(), installed.webhookServiceAccount());
  }

  /** The identity of the syncer pod of the release installed in {@code namespace}. */
  public Identity syncerIdentityOf(String namespace) {
    return SyncerHost.podIdentity(namespace, namespace + "-secret-syncer");
  }

  /**
   * The first release's syncer ServiceAccount authenticated by a token bound to no pod: a legacy
   * token Secret, or one from {@code kubectl create token}, in someone's hands.
   */
  public Identity syncerAccountWithALegacyToken() {
    return Identity.serviceAccount(installNamespace(), requireInstalled().syncerServiceAccount());
  }

  public String installNamespace() {
    return requireInstalled().namespace();
  }

  /** The name of the first release's pull-secret admission policy. */
  public String admissionPolicyName() {
    return PolicyFailure.policyOf(requireInstalled());
  }

  // ---- helm test ----------------------------------------------------------------------------

  /** {@code helm test} of the first release: {@code kuik selftest} without the pod check. */
  public SelftestReport helmTest() {
    return helmTest(null);
  }

  /**
   * {@code helm test} of the first release, as the chart runs it: the test's ServiceAccount and the
   * RBAC of chart/files/selftest-rbac.yaml created as hooks (with the pod check's RoleBinding in
   * its namespace when {@code podCheck} is given), the production selftest run under that identity
   * with the arguments the chart gives it, then every hook deleted, passed or failed
   * (hook-delete-policy before-hook-creation,hook-succeeded,hook-failed).
   *
   * @param podCheck the chart's {@code selftest.podCheck}, or null
   * @return the report the test pod prints
   */
  public SelftestReport helmTest(SelftestSettings.PodCheck podCheck) {
    Release installed = requireInstalled();
    String namespace = installed.namespace();
    Identity test = Identity.serviceAccount(namespace, installed.fullname() + "-selftest");
    world.cluster().trace().alias(test, "selftest");
    List<ObjectNode> hooks = new ArrayList<>();
    hooks.add(serviceAccount(namespace, installed.fullname() + "-selftest"));
    hooks.addAll(world.cluster().chart().load(ChartFiles.SELFTEST_RBAC, installed));
    if (podCheck != null) {
      hooks.add(podCheckBinding(installed, podCheck.namespace()));
    }
    List<ObjectNode> created = new ArrayList<>();
    try {
      for (ObjectNode hook : hooks) {
        created.add(world.api().create(Cluster.ADMIN, hook));
      }
      String syncerService = ComponentDeployments.syncer(installed.fullname()) + "-metrics";
      String webhookService = ComponentDeployments.webhook(installed.fullname()) + "-metrics";
      Map<String, Supplier<Readyz>> services = new LinkedHashMap<>();
      services.put(
          syncerService + "." + namespace + ".svc", SimulatedSelftestCluster.readyz(syncer()));
      services.put(
          webhookService + "." + namespace + ".svc", SimulatedSelftestCluster.readyz(webhook()));
      SelftestSettings settings =
          new SelftestSettings(
              installed.name(),
              namespace,
              installed.fullname(),
              SelftestSettings.serviceReadyz(
                  ComponentDeployments.syncer(installed.fullname()), namespace, HEALTH_PORT),
              SelftestSettings.serviceReadyz(
                  ComponentDeployments.webhook(installed.fullname()), namespace, HEALTH_PORT),
              podCheck);
      return SelftestPod.run(world.api(), test, settings, services);
    } finally {
      for (int i = created.size() - 1; i >= 0; i--) {
        ObjectNode hook = created.get(i);
        try {
          world
              .api()
              .delete(
                  Cluster.ADMIN,
                  ResourceType.ofKind(
                          hook.path("apiVersion").asString(), hook.path("kind").asString())
                      .orElseThrow(),
                  Meta.namespace(hook),
                  Meta.name(hook));
        } catch (ApiException gone) {
          // Helm ignores a hook that is already gone when it deletes it.
        }
      }
    }
  }

  /** The chart's default health port, where the metrics Services expose /readyz. */
  private static final int HEALTH_PORT = 8080;

  private static ObjectNode serviceAccount(String namespace, String name) {
    ObjectNode account = Json.object();
    account.put("apiVersion", "v1");
    account.put("kind", "ServiceAccount");
    ObjectNode meta = account.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    return account;
  }

  /** What templates/selftest.yaml renders for selftest.podCheck.namespace. */
  private static ObjectNode podCheckBinding(Release release, String namespace) {
    ObjectNode binding = Json.object();
    binding.put("apiVersion", "rbac.authorization.k8s.io/v1");
    binding.put("kind", "RoleBinding");
    ObjectNode meta = binding.putObject("metadata");
    meta.put("name", release.fullname() + "-selftest-pod-check");
    meta.put("namespace", namespace);
    ObjectNode roleRef = binding.putObject("roleRef");
    roleRef.put("apiGroup", "rbac.authorization.k8s.io");
    roleRef.put("kind", "ClusterRole");
    roleRef.put("name", release.fullname() + "-selftest-pod-check");
    ObjectNode subject = binding.putArray("subjects").addObject();
    subject.put("kind", "ServiceAccount");
    subject.put("name", release.fullname() + "-selftest");
    subject.put("namespace", release.namespace());
    return binding;
  }

  // ---- the processes ------------------------------------------------------------------------

  public SyncerHost syncer() {
    requireInstalled();
    return syncer;
  }

  /** The syncer instance installed in {@code namespace}. */
  public SyncerHost syncer(String namespace) {
    if (requireInstalled().namespace().equals(namespace)) {
      return syncer;
    }
    SyncerHost host = otherInstances.get(namespace);
    if (host == null) {
      throw new IllegalArgumentException("no kuik instance is installed in " + namespace);
    }
    return host;
  }

  /** Whether the first syncer instance runs (it has not crashed or stopped since it started). */
  public boolean syncerRunning() {
    return syncer().running();
  }

  /** The targeting of every syncer instance, the first installed first. */
  public List<Targeting> instances() {
    List<Targeting> all = new ArrayList<>();
    all.add(syncer().settings().targeting());
    otherInstances.values().forEach(host -> all.add(host.settings().targeting()));
    return all;
  }

  public WebhookHost webhook() {
    requireInstalled();
    return webhook;
  }

  // ---- restarts with other flags -------------------------------------------------------------

  /** Sets whether the first instance serves namespaces with neither targeting label. */
  public void restartSyncerServingByDefault(boolean namespacesByDefault) {
    SyncerSettings settings = syncer().settings();
    syncer.restartWith(
        settings.withTargeting(
            new Targeting(settings.clusterResourceNamespace(), namespacesByDefault)));
  }

  public void restartSyncerWithGrace(Duration grace) {
    syncer().restartWith(syncer.settings().withGrace(grace));
  }

  /** A restart, as the syncer command runs: each resync spread over the resync period. */
  public void restartSyncerWithResyncSpreadOverThePeriod() {
    syncer().restartWith(syncer.settings());
  }

  /** The same, with {@code --api-qps qps --api-burst 1}. */
  public void restartSyncerWithResyncSpreadOverThePeriod(double qps) {
    syncer().restartWith(syncer.settings().withWriteLimit(qps, 1));
  }

  /**
   * The chart's syncer flags for a release in {@code namespace}: the defaults, which resync every
   * {@link KuikWorld#RESYNC_PERIOD} spread over it, as {@code kuik syncer} does, and the providers
   * declared so far ({@link Providers}).
   */
  private SyncerSettings syncerSettings(String namespace, boolean namespacesByDefault) {
    return SyncerSettings.defaults(namespace)
        .withTargeting(new Targeting(namespace, namespacesByDefault))
        .withResyncPeriod(KuikWorld.RESYNC_PERIOD)
        .withProviders(world.providers().settings());
  }

  // ---- for the other facets -------------------------------------------------------------------

  /** Every syncer instance, the first installed first. */
  List<SyncerHost> everySyncer() {
    List<SyncerHost> all = new ArrayList<>();
    all.add(syncer());
    all.addAll(otherInstances.values());
    return all;
  }

  /** The webhook, or null before the first install. */
  WebhookHost webhookIfInstalled() {
    return webhook;
  }

  Release requireInstalled() {
    if (release == null) {
      throw new IllegalStateException(
          "kuik is not installed: start with 'Given kuik is installed in the namespace ...'");
    }
    return release;
  }
}
