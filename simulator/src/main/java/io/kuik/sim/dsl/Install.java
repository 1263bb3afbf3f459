package io.kuik.sim.dsl;

import io.kuik.kube.syncer.SyncerRuntimeSettings;
import io.kuik.selftest.SelftestReport;
import io.kuik.selftest.SelftestSettings;
import io.kuik.sim.chart.Release;
import io.kuik.sim.chart.RenderedRelease;
import io.kuik.sim.faults.PolicyFailure;
import io.kuik.sim.hosts.SyncerHost;
import io.kuik.sim.hosts.Told;
import io.kuik.sim.hosts.WebhookHost;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import io.kuik.syncer.SyncerSettings;
import io.kuik.syncer.Targeting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
   * {@code helm install <release> --namespace <namespace>} with these {@code --set key=value} (and
   * the world's resync period), as the first release.
   */
  public void install(String release, String namespace, List<String> values) {
    List<String> all = new ArrayList<>(worldValues(true));
    all.addAll(values);
    installRelease(Release.of(release, namespace, all), true);
  }

  /** {@code helm install} of one more release with these values, beside the first. */
  public void installBeside(String release, String namespace, List<String> values) {
    List<String> all = new ArrayList<>(worldValues(true));
    all.addAll(values);
    installBeside(Release.of(release, namespace, all));
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

  /**
   * The values every simulated install sets: the world's resync period, its targeting default, and
   * the providers declared so far ({@link Providers#values}).
   */
  private List<String> worldValues(boolean namespacesByDefault) {
    List<String> values = new ArrayList<>();
    values.add("syncer.namespacesByDefault=" + namespacesByDefault);
    values.add("syncer.resyncPeriod=" + chartDuration(KuikWorld.RESYNC_PERIOD));
    values.addAll(world.providers().values());
    return values;
  }

  /** A duration as the chart's values write one: a whole number and one unit. */
  static String chartDuration(Duration duration) {
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
    SyncerRuntimeSettings told =
        Told.syncer(rendered.args("syncer"), rendered.mountedFiles("syncer"));
    tools.jackson.databind.node.ObjectNode deployment = rendered.runner("syncer").orElseThrow();
    SyncerHost host =
        SyncerHost.told(world.api(), runsAs(installed, deployment), told)
            .tryingCredentialsOn(world.cluster().registries());
    host.reportAvailability(available(installed.namespace(), Meta.name(deployment)));
    return host;
  }

  /** The webhook as the render's Deployment runs it, with the render's namespaceSelector. */
  private WebhookHost webhookOf(Release installed, RenderedRelease rendered) {
    WebhookHost host =
        WebhookHost.told(
            world.api(),
            runsAs(installed, rendered.runner("webhook").orElseThrow()),
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

  /** The identity of the Deployment's pod: the ServiceAccount it names, by a pod-bound token. */
  private static Identity runsAs(
      Release installed, tools.jackson.databind.node.ObjectNode deployment) {
    return SyncerHost.podIdentity(
        installed.namespace(),
        deployment
            .path("spec")
            .path("template")
            .path("spec")
            .path("serviceAccountName")
            .asString());
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

  /**
   * {@code helm upgrade} of the first release with the providers as declared now ({@link
   * Providers#values}): the checksum of their configuration on the syncer's pod template changes,
   * so its pod is replaced, starting with what the new render mounts and tells it.
   */
  public void upgradeWithTheProviders() {
    Release upgraded =
        requireInstalled().withValues(world.providers().values().toArray(String[]::new));
    world.cluster().upgrade(upgraded);
    release = upgraded;
    RenderedRelease rendered = world.cluster().chart().render(upgraded);
    syncer.restartWith(
        Told.syncer(rendered.args("syncer"), rendered.mountedFiles("syncer")).syncer());
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
   * The first release's syncer ServiceAccount authenticated by a token bound to no pod, in
   * someone's hands: a legacy token Secret (no extra at all), or, with {@code requested}, one from
   * {@code kubectl create token} (its credential id alone).
   */
  public Identity syncerAccountWithATokenBoundToNoPod(boolean requested) {
    String account = requireInstalled().syncerServiceAccount();
    return requested
        ? Identity.serviceAccountToken(installNamespace(), account, "kubectl-create-token")
        : Identity.serviceAccount(installNamespace(), account);
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
    return HelmTest.run(world, requireInstalled(), podCheck, syncer(), webhook());
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

  /** The syncer of the release named {@code release}: the first, or one installed beside it. */
  public SyncerHost syncerOfRelease(String release) {
    if (requireInstalled().name().equals(release)) {
      return syncer;
    }
    SyncerHost host = otherInstances.get(release);
    if (host == null) {
      throw new IllegalArgumentException("no release " + release + " is installed");
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
