package io.kuik.sim.dsl;

import io.kuik.kube.syncer.SyncerRuntimeSettings;
import io.kuik.selftest.SelftestCluster.Readyz;
import io.kuik.selftest.SelftestReport;
import io.kuik.selftest.SelftestSettings;
import io.kuik.sim.Cluster;
import io.kuik.sim.chart.Release;
import io.kuik.sim.chart.RenderedRelease;
import io.kuik.sim.faults.PolicyFailure;
import io.kuik.sim.hosts.SelftestPod;
import io.kuik.sim.hosts.SimulatedSelftestCluster;
import io.kuik.sim.hosts.SyncerHost;
import io.kuik.sim.hosts.Told;
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
  private final Map<String, WebhookHost> otherWebhooks = new LinkedHashMap<>();
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
    List<String> values = new ArrayList<>(worldValues(namespacesByDefault));
    if (gateBound != null) {
      values.add("pullSecretFirst.enabled=true");
      values.add("pullSecretFirst.maxWait=" + chartDuration(gateBound));
    }
    installRelease(
        new Release("kuik", namespace).withValues(values.toArray(String[]::new)), withPolicy);
  }

  /**
   * {@code helm install} of {@code release} as the first release: Helm renders the chart for its
   * values, the cluster holds what the render holds (the policies created last, or not at all when
   * {@code withPolicy} is false), and the syncer and the webhook start with the command lines the
   * render gives their Deployments, read by {@code kuik}'s own commands.
   */
  public void installRelease(Release installed, boolean withPolicy) {
    release = installed;
    if (withPolicy) {
      world.cluster().install(release);
    } else {
      world.cluster().installWithoutThePolicy(release);
    }
    RenderedRelease rendered = world.cluster().chart().render(release);
    syncer = syncerOf(release, rendered);
    syncer.start();
    webhook = webhookOf(release, rendered);
    webhook.start();
  }

  /**
   * {@code helm install} of one more release beside the first (in its namespace or another), with
   * its own syncer and webhook; it leaves the CRDs to the first ({@code crds.enabled=false}), as
   * two releases cannot own one CRD. Its trace names are its release name's.
   */
  public void installBeside(Release other) {
    requireInstalled();
    Release beside = other.withValues("crds.enabled=false");
    world.cluster().install(beside);
    otherReleases.put(beside.name(), beside);
    RenderedRelease rendered = world.cluster().chart().render(beside);
    SyncerHost host = syncerOf(beside, rendered);
    world.cluster().trace().alias(host.identity(), beside.name() + "-syncer");
    otherInstances.put(beside.name(), host);
    host.start();
    WebhookHost hook = webhookOf(beside, rendered);
    world.cluster().trace().alias(webhookIdentityOf(beside), beside.name() + "-webhook");
    otherWebhooks.put(beside.name(), hook);
    hook.start();
  }

  /** The values every simulated install sets: the world's resync period, its targeting default. */
  private static List<String> worldValues(boolean namespacesByDefault) {
    return List.of(
        "syncer.namespacesByDefault=" + namespacesByDefault,
        "syncer.resyncPeriod=" + chartDuration(KuikWorld.RESYNC_PERIOD));
  }

  /** A duration as the chart's values write one: a whole number and one unit. */
  private static String chartDuration(Duration duration) {
    long ms = duration.toMillis();
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }

  /** The syncer as the render's Deployment runs it, reporting to that Deployment. */
  private SyncerHost syncerOf(Release installed, RenderedRelease rendered) {
    SyncerRuntimeSettings told = Told.syncer(rendered.args("syncer"));
    SyncerHost host =
        SyncerHost.told(
                world.api(),
                SyncerHost.podIdentity(installed.namespace(), installed.syncerServiceAccount()),
                told)
            .tryingCredentialsOn(world.cluster().registries());
    host.reportAvailability(
        available(installed.namespace(), Meta.name(rendered.runner("syncer").orElseThrow())));
    return host;
  }

  /** The webhook as the render's Deployment runs it, with the render's namespaceSelector. */
  private WebhookHost webhookOf(Release installed, RenderedRelease rendered) {
    WebhookHost host =
        WebhookHost.told(
            world.api(),
            webhookIdentityOf(installed),
            Told.webhook(rendered.args("webhook")),
            (tools.jackson.databind.node.ObjectNode)
                rendered
                    .ofKind("MutatingWebhookConfiguration")
                    .get(0)
                    .path("webhooks")
                    .path(0)
                    .path("namespaceSelector"),
            world.cluster().registries(),
            KuikWorld.WEBHOOK_TIMEOUT);
    host.reportAvailability(
        available(installed.namespace(), Meta.name(rendered.runner("webhook").orElseThrow())));
    return host;
  }

  private static Identity webhookIdentityOf(Release installed) {
    return SyncerHost.podIdentity(installed.namespace(), installed.webhookServiceAccount());
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
    Release other =
        new Release(namespace, namespace)
            .withPeers(present)
            .withValues(worldValues(namespacesByDefault).toArray(String[]::new))
            .withValues("crds.enabled=false");
    world.cluster().install(other);
    release = release.withPeers(List.of(other.asPeer()));
    world.cluster().upgrade(release);
    otherReleases.replaceAll(
        (name, r) -> {
          Release upgraded = r.withPeers(List.of(other.asPeer()));
          world.cluster().upgrade(upgraded);
          return upgraded;
        });
    otherReleases.put(namespace, other);
    SyncerHost host = syncerOf(other, world.cluster().chart().render(other));
    world.cluster().trace().alias(host.identity(), namespace + "-syncer");
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

  /**
   * The namespaces the first release's values exclude from the webhook ({@code
   * webhook.excludedNamespaces}), as the administrator set them; none before an install.
   */
  public java.util.Set<String> excludedNamespaces() {
    java.util.Set<String> excluded = new java.util.TreeSet<>();
    if (release != null) {
      for (int i = 0; release.value("webhook.excludedNamespaces[" + i + "]").isPresent(); i++) {
        excluded.add(release.value("webhook.excludedNamespaces[" + i + "]").orElseThrow());
      }
    }
    return excluded;
  }

  /** The name of the first release's pull-secret admission policy, as its syncer is told it. */
  public String admissionPolicyName() {
    return PolicyFailure.policyOf(world.cluster().chart(), requireInstalled());
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
    Release tested =
        podCheck == null
            ? installed
            : installed.withValues(
                "selftest.podCheck.namespace=" + podCheck.namespace(),
                "selftest.podCheck.image=" + podCheck.image());
    RenderedRelease rendered = world.cluster().chart().render(tested);
    ObjectNode pod = rendered.runner("selftest").orElseThrow();
    String namespace = installed.namespace();
    Identity test =
        Identity.serviceAccountInPod(
            namespace,
            pod.path("spec").path("serviceAccountName").asString(),
            Meta.name(pod),
            "pod-uid-" + Meta.name(pod));
    world.cluster().trace().alias(test, "selftest");
    List<ObjectNode> hooks =
        rendered.hooks().stream().filter(h -> !"Pod".equals(Json.text(h, "kind"))).toList();
    List<ObjectNode> created = new ArrayList<>();
    try {
      for (ObjectNode hook : hooks) {
        created.add(world.api().create(Cluster.ADMIN, hook));
      }
      SelftestSettings settings = Told.selftest(rendered.args("selftest"));
      return SelftestPod.run(world.api(), test, settings, readyzByService(rendered, settings));
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

  /**
   * Each /readyz URL the selftest is told, answered by the component whose pods the named Service
   * of the render selects (its {@code app.kubernetes.io/component}); a URL naming no Service of the
   * render answers nothing, as on a cluster.
   */
  private Map<String, Supplier<Readyz>> readyzByService(
      RenderedRelease rendered, SelftestSettings settings) {
    Map<String, Supplier<Readyz>> services = new LinkedHashMap<>();
    for (java.net.URI url :
        java.util.Arrays.asList(settings.syncerReadyz(), settings.webhookReadyz())) {
      if (url == null) {
        continue;
      }
      String[] host = url.getHost().split("[.]");
      rendered
          .find("Service", host[0])
          .filter(service -> host.length > 1 && host[1].equals(Meta.namespace(service)))
          .map(
              service ->
                  service
                      .path("spec")
                      .path("selector")
                      .path("app.kubernetes.io/component")
                      .asString(""))
          .ifPresent(
              component -> {
                if (component.equals("secret-syncer")) {
                  services.put(url.getHost(), SimulatedSelftestCluster.readyz(syncer()));
                } else if (component.equals("webhook")) {
                  services.put(url.getHost(), SimulatedSelftestCluster.readyz(webhook()));
                }
              });
    }
    return services;
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
