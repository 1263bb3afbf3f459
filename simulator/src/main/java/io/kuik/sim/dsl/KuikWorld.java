package io.kuik.sim.dsl;

import io.kuik.model.DockerConfig;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidDockerConfigException;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.RegistryCredential;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RoutingKind;
import io.kuik.model.SecretNames;
import io.kuik.sim.Cluster;
import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.faults.PolicyFailure;
import io.kuik.sim.hosts.SyncerHost;
import io.kuik.sim.hosts.WebhookHost;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.DeleteOptions;
import io.kuik.sim.world.StatusReason;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.crd.PrinterColumns;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.registry.Availability;
import io.kuik.sim.world.registry.Registry;
import io.kuik.syncer.SyncerSettings;
import io.kuik.syncer.Targeting;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A kuik installation in a simulated cluster, driven with kubectl-level verbs. The features' steps
 * call this and nothing below it; it acts through API requests under real identities, so RBAC and
 * the chart's admission policy apply to everything it does.
 */
public final class KuikWorld {

  /** A cluster administrator, as a person running kubectl. */
  public static final Identity ADMIN = Identity.person("alice", "system:masters");

  public static final Duration RESYNC_PERIOD = Duration.ofMinutes(10);

  /** The chart's default timeoutSeconds for the pod webhook. */
  public static final Duration WEBHOOK_TIMEOUT = Duration.ofSeconds(3);

  private final Cluster cluster;
  private Release release;
  private SyncerHost syncer;
  private final Map<String, SyncerHost> otherInstances = new LinkedHashMap<>();
  private final Map<String, Release> otherReleases = new LinkedHashMap<>();
  private WebhookHost webhook;

  public KuikWorld(long seed) {
    this.cluster = Cluster.create(seed);
  }

  /** A world whose kuik releases are installed from these chart files. */
  public KuikWorld(long seed, ChartFiles chart) {
    this.cluster = Cluster.create(seed, chart);
  }

  public Cluster cluster() {
    return cluster;
  }

  public ApiServer api() {
    return cluster.api();
  }

  public Instant now() {
    return cluster.loop().now();
  }

  // ---- installation and the syncer process ------------------------------------------------

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
    cluster.loop().schedule(after, "helm creates the admission policy", this::createThePolicy);
  }

  private void install(String namespace, boolean namespacesByDefault, boolean withPolicy) {
    release = new Release("kuik", namespace);
    if (withPolicy) {
      cluster.install(release);
    } else {
      cluster.installWithoutThePolicy(release);
    }
    syncer =
        new SyncerHost(
                api(),
                SyncerHost.podIdentity(namespace, release.syncerServiceAccount()),
                SyncerSettings.defaults(namespace)
                    .withTargeting(new Targeting(namespace, namespacesByDefault)),
                RESYNC_PERIOD)
            .writingOnlyUnder(SyncerHost.Bounds.ofRelease(release.name()));
    syncer.start();
    webhook =
        new WebhookHost(
            api(),
            SyncerHost.podIdentity(namespace, release.webhookServiceAccount()),
            namespace,
            cluster.registries(),
            WEBHOOK_TIMEOUT);
    webhook.start();
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
    cluster.install(other);
    release = release.withPeers(List.of(other.asPeer()));
    cluster.upgrade(release);
    otherReleases.replaceAll(
        (ns, r) -> {
          Release upgraded = r.withPeers(List.of(other.asPeer()));
          cluster.upgrade(upgraded);
          return upgraded;
        });
    otherReleases.put(namespace, other);
    Identity identity = SyncerHost.podIdentity(namespace, other.syncerServiceAccount());
    cluster.trace().alias(identity, namespace + "-syncer");
    SyncerSettings settings =
        SyncerSettings.defaults(namespace)
            .withTargeting(new Targeting(namespace, namespacesByDefault));
    SyncerHost host =
        new SyncerHost(api(), identity, settings, RESYNC_PERIOD)
            .writingOnlyUnder(SyncerHost.Bounds.ofRelease(other.name()));
    otherInstances.put(namespace, host);
    host.start();
  }

  /** Helm (or a person) creates the first release's admission policy and its binding. */
  public void createThePolicy() {
    cluster.installPolicy(requireInstalled());
  }

  /**
   * The first release's admission policy binding is deleted ({@code helm uninstall} deletes it with
   * everything else, while the syncer runs through its termination grace; or a person).
   */
  public void deleteThePolicyBinding() {
    api()
        .delete(
            ADMIN,
            ResourceType.VALIDATING_ADMISSION_POLICY_BINDING,
            null,
            requireInstalled().name() + "-pull-secrets");
  }

  /** The first release's admission policy is deleted, its binding left. */
  public void deleteThePolicy() {
    api()
        .delete(
            ADMIN,
            ResourceType.VALIDATING_ADMISSION_POLICY,
            null,
            requireInstalled().name() + "-pull-secrets");
  }

  /** The API server runs OwnerReferencesPermissionEnforcement, as OpenShift's does. */
  public void enforceOwnerReferencesPermission() {
    api().setOwnerReferencesPermissionEnforcement(true);
  }

  /** {@code helm upgrade --set syncer.ownerReferencesPermissionEnforcement=true}. */
  public void upgradeWithOwnerReferencesPermission() {
    cluster.grantOwnerReferencesPermission(requireInstalled());
  }

  /**
   * A kuik release in {@code namespace} (its release name too) that no other release lists in
   * {@code syncer.peers} and that lists none: its chart objects and ServiceAccounts only, no
   * process. Its syncer's identity is then a stranger to every other release's policy.
   */
  public void installUnlistedRelease(String namespace) {
    requireInstalled();
    cluster.install(new Release(namespace, namespace));
    // Its writes are not this world's syncer's: the every-scenario check must not count them.
    cluster.trace().alias(syncerIdentityOf(namespace), namespace + "-syncer");
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

  /**
   * A tenant's own ServiceAccount {@code name} in {@code namespace}, with a Role and RoleBinding
   * that let it create and patch Secrets there, as a namespace admin may set up.
   */
  public Identity serviceAccountThatWritesSecrets(String namespace, String name) {
    ObjectNode account = Json.object();
    account.put("apiVersion", "v1");
    account.put("kind", "ServiceAccount");
    account.putObject("metadata").put("name", name).put("namespace", namespace);
    api().create(ADMIN, account);
    ObjectNode role = Json.object();
    role.put("apiVersion", "rbac.authorization.k8s.io/v1");
    role.put("kind", "Role");
    role.putObject("metadata").put("name", name + "-secrets").put("namespace", namespace);
    ObjectNode rule = role.putArray("rules").addObject();
    rule.putArray("apiGroups").add("");
    rule.putArray("resources").add("secrets");
    rule.putArray("verbs").add("create").add("patch").add("get");
    api().create(ADMIN, role);
    ObjectNode binding = Json.object();
    binding.put("apiVersion", "rbac.authorization.k8s.io/v1");
    binding.put("kind", "RoleBinding");
    binding.putObject("metadata").put("name", name + "-secrets").put("namespace", namespace);
    binding
        .putObject("roleRef")
        .put("apiGroup", "rbac.authorization.k8s.io")
        .put("kind", "Role")
        .put("name", name + "-secrets");
    binding
        .putArray("subjects")
        .addObject()
        .put("kind", "ServiceAccount")
        .put("name", name)
        .put("namespace", namespace);
    api().create(ADMIN, binding);
    return Identity.serviceAccount(namespace, name);
  }

  /** Sets whether the first instance serves namespaces with neither targeting label. */
  public void restartSyncerServingByDefault(boolean namespacesByDefault) {
    SyncerSettings settings = syncer().settings();
    syncer.restartWith(
        settings.withTargeting(
            new Targeting(settings.clusterResourceNamespace(), namespacesByDefault)));
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

  public String installNamespace() {
    return requireInstalled().namespace();
  }

  public SyncerHost syncer() {
    requireInstalled();
    return syncer;
  }

  public void restartSyncerWithGrace(Duration grace) {
    syncer().restartWith(syncer.settings().withGrace(grace));
  }

  /** As the syncer command runs: each resync spread over the resync period. */
  public void restartSyncerWithResyncSpreadOverThePeriod() {
    syncer().restartWith(syncer.settings().withResyncSpread(RESYNC_PERIOD));
  }

  /** The same, with {@code --api-qps qps --api-burst 1}. */
  public void restartSyncerWithResyncSpreadOverThePeriod(double qps) {
    syncer().restartWith(syncer.settings().withResyncSpread(RESYNC_PERIOD).withWriteLimit(qps, 1));
  }

  // ---- time ---------------------------------------------------------------------------------

  public void pass(Duration duration) {
    cluster.loop().runFor(duration);
  }

  // ---- any manifest -------------------------------------------------------------------------

  /** {@code kubectl create -f} of one manifest as the administrator; refusals are thrown. */
  public ObjectNode create(ObjectNode manifest) {
    return api().create(ADMIN, manifest);
  }

  /**
   * A Deployment of {@code replicas} pods from {@code template} (its {@code spec.template}), run by
   * the simulated ReplicaSet controller.
   */
  public void deployment(String namespace, String name, ObjectNode template, int replicas) {
    cluster.deployments().create(namespace, name, template, replicas);
  }

  // ---- namespaces -----------------------------------------------------------------------------

  public void createNamespace(String name, Map<String, String> labels) {
    ObjectNode ns = Json.object();
    ns.put("apiVersion", "v1");
    ns.put("kind", "Namespace");
    ObjectNode meta = ns.putObject("metadata");
    meta.put("name", name);
    labels.forEach(meta.putObject("labels")::put);
    api().create(ADMIN, ns);
  }

  public void labelNamespace(String name, String key, String value) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putObject("labels").put(key, value);
    api().mergePatch(ADMIN, ResourceType.NAMESPACE, null, name, patch, "kubectl-label");
  }

  /** A finalizer that nobody removes keeps the namespace in Terminating once it is deleted. */
  public void holdNamespaceInTerminating(String name) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putArray("finalizers").add("example.com/hold");
    api().mergePatch(ADMIN, ResourceType.NAMESPACE, null, name, patch, "kubectl-patch");
  }

  public void deleteNamespace(String name) {
    api().delete(ADMIN, ResourceType.NAMESPACE, null, name);
  }

  // ---- Secrets ---------------------------------------------------------------------------------

  /**
   * Creates or replaces a docker-registry Secret holding these credentials by registry path, keys
   * in the map's order (as a person's file lists them; the order is what a "last key wins" bug
   * would depend on), each with {@code username}, {@code password} and {@code auth} as {@code
   * kubectl create secret docker-registry} writes them.
   */
  public void dockerRegistrySecret(
      String namespace, String name, Map<String, RegistryCredential> auths) {
    ObjectNode document = Json.object();
    ObjectNode entries = document.putObject("auths");
    auths.forEach(
        (key, credential) -> {
          ObjectNode entry = entries.putObject(key);
          putIfSet(entry, "username", credential.username());
          putIfSet(entry, "password", credential.password());
          putIfSet(entry, "identitytoken", credential.identityToken());
          putIfSet(entry, "registrytoken", credential.registryToken());
          if (credential.username() != null && credential.password() != null) {
            String pair = credential.username() + ":" + credential.password();
            entry.put(
                "auth", Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
          }
        });
    putSecret(
        namespace,
        name,
        "kubernetes.io/dockerconfigjson",
        Map.of(".dockerconfigjson", Json.write(document)));
  }

  private static void putIfSet(ObjectNode entry, String field, String value) {
    if (value != null) {
      entry.put(field, value);
    }
  }

  /** A docker-registry Secret whose .dockerconfigjson is this text exactly. */
  public void dockerConfigSecret(String namespace, String name, String dockerConfigJson) {
    putSecret(
        namespace,
        name,
        "kubernetes.io/dockerconfigjson",
        Map.of(".dockerconfigjson", dockerConfigJson));
  }

  /** A legacy {@code kubernetes.io/dockercfg} Secret whose .dockercfg is this text exactly. */
  public void legacyDockercfgSecret(String namespace, String name, String dockercfg) {
    putSecret(namespace, name, "kubernetes.io/dockercfg", Map.of(".dockercfg", dockercfg));
  }

  public void opaqueSecret(String namespace, String name, Map<String, String> data) {
    putSecret(namespace, name, "Opaque", data);
  }

  public void annotateSecret(String namespace, String name, String key, String value) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putObject("annotations").put(key, value);
    api().mergePatch(ADMIN, ResourceType.SECRET, namespace, name, patch, "kubectl-annotate");
  }

  public void deleteSecret(String namespace, String name) {
    api().delete(ADMIN, ResourceType.SECRET, namespace, name);
  }

  /**
   * Creates an immutable Secret under a reserved name as if before kuik's admission policy existed:
   * the policy's binding is taken away for the write and put back after it.
   */
  public void immutableSecretBeforeThePolicy(
      String namespace, String name, String dockerConfigJson) {
    String binding = release.name() + "-pull-secrets";
    ObjectNode stored =
        api().get(ADMIN, ResourceType.VALIDATING_ADMISSION_POLICY_BINDING, null, binding);
    api().delete(ADMIN, ResourceType.VALIDATING_ADMISSION_POLICY_BINDING, null, binding);
    ObjectNode secret =
        secretObject(
            namespace,
            name,
            "kubernetes.io/dockerconfigjson",
            Map.of(".dockerconfigjson", dockerConfigJson));
    secret.put("immutable", true);
    api().create(ADMIN, secret);
    api().create(ADMIN, withoutServerFields(stored));
  }

  public Optional<ObjectNode> secret(String namespace, String name) {
    return api().find(ADMIN, ResourceType.SECRET, namespace, name);
  }

  /** The docker config a Secret holds; fails when the Secret is missing or holds none. */
  public DockerConfig dockerConfigOf(String namespace, String name) {
    ObjectNode secret =
        secret(namespace, name)
            .orElseThrow(() -> new AssertionError("no Secret " + namespace + "/" + name));
    String encoded = Json.text(secret, "data", ".dockerconfigjson");
    if (encoded == null) {
      throw new AssertionError(namespace + "/" + name + " has no .dockerconfigjson");
    }
    try {
      return DockerConfig.parse(
          new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8));
    } catch (InvalidDockerConfigException e) {
      throw new AssertionError(namespace + "/" + name + ": " + e.getMessage());
    }
  }

  public String decodedDockerConfig(String namespace, String name) {
    ObjectNode secret =
        secret(namespace, name)
            .orElseThrow(() -> new AssertionError("no Secret " + namespace + "/" + name));
    return new String(
        Base64.getDecoder().decode(Json.text(secret, "data", ".dockerconfigjson")),
        StandardCharsets.UTF_8);
  }

  // ---- routing resources ----------------------------------------------------------------------

  public void createResource(String kind, String name, String specYaml) {
    api().create(ADMIN, resourceObject(kind, name, specYaml));
  }

  /**
   * Creates the resource as a cluster would have stored it when its CRD had no schema: the CRD is
   * replaced by one that accepts any object (as an older kuik release's could have been, or a CRD
   * applied by hand), the resource created, and the chart's CRD put back. The API server does not
   * validate stored objects again when a CRD changes, so the resource stays, as it is, until it is
   * written again; the controllers read it as it is.
   */
  public void createResourceWithoutTheCrdSchema(String kind, String name, String specYaml) {
    ResourceType type = typeOf(kind);
    String crdName = type.resource() + "." + type.group();
    ObjectNode crd = api().get(ADMIN, ResourceType.CUSTOM_RESOURCE_DEFINITION, null, crdName);
    JsonNode chartSpec = crd.get("spec").deepCopy();
    for (var version : crd.path("spec").path("versions")) {
      ((ObjectNode) version)
          .putObject("schema")
          .set(
              "openAPIV3Schema",
              Json.yaml("{type: object, x-kubernetes-preserve-unknown-fields: true}"));
    }
    api().update(ADMIN, crd);
    try {
      createResource(kind, name, specYaml);
    } finally {
      ObjectNode live = api().get(ADMIN, ResourceType.CUSTOM_RESOURCE_DEFINITION, null, crdName);
      live.set("spec", chartSpec);
      api().update(ADMIN, live);
    }
  }

  public void changeResource(String kind, String name, String specYaml) {
    ObjectNode live = api().get(ADMIN, typeOf(kind), null, name);
    ObjectNode changed = resourceObject(kind, name, specYaml);
    changed.set("metadata", live.get("metadata"));
    api().update(ADMIN, changed);
  }

  public void deleteResource(String kind, String name) {
    api().delete(ADMIN, typeOf(kind), null, name);
  }

  /**
   * {@code kubectl get <plural>,<plural> -o wide} on the routing kinds: one row per resource, kind
   * after kind as listed and names in order, each a map from kubectl's header (NAME and each
   * printer column of the kind's stored CRD, upper case) to its cell; NAME is {@code
   * <kind>.<group>/<name>}, as kubectl prints it for more than one kind.
   */
  public List<Map<String, String>> kubectlGet(List<String> plurals) {
    List<Map<String, String>> rows = new ArrayList<>();
    for (String plural : plurals) {
      ResourceType type =
          ResourceType.ALL.stream()
              .filter(t -> t.resource().equals(plural))
              .findFirst()
              .orElseThrow(() -> new IllegalArgumentException("no resource type " + plural));
      ObjectNode crd =
          api()
              .get(
                  ADMIN,
                  ResourceType.CUSTOM_RESOURCE_DEFINITION,
                  null,
                  type.resource() + "." + type.group());
      List<ObjectNode> items = new ArrayList<>(api().list(ADMIN, type, null).items());
      items.sort(java.util.Comparator.comparing(o -> Json.text(o, "metadata", "name")));
      for (ObjectNode item : items) {
        Map<String, String> row = new LinkedHashMap<>();
        row.put(
            "NAME",
            type.kind().toLowerCase(java.util.Locale.ROOT)
                + "."
                + type.group()
                + "/"
                + Json.text(item, "metadata", "name"));
        for (PrinterColumns.Column column : PrinterColumns.of(crd)) {
          row.put(
              column.name().toUpperCase(java.util.Locale.ROOT), PrinterColumns.cell(column, item));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** Warning or Normal events recorded on a routing resource, as "reason: message". */
  public List<String> eventsOn(String kind, String name, String type) {
    List<String> out = new ArrayList<>();
    for (ObjectNode event : api().list(ADMIN, ResourceType.EVENT, "default").items()) {
      if (kind.equals(Json.text(event, "involvedObject", "kind"))
          && name.equals(Json.text(event, "involvedObject", "name"))
          && type.equals(Json.text(event, "type"))) {
        out.add(Json.text(event, "reason") + ": " + Json.text(event, "message"));
      }
    }
    return out;
  }

  // ---- pods -------------------------------------------------------------------------------------

  /**
   * A pod as kuik's webhook leaves it after rewriting its only container {@code app} to {@code
   * image}: its label, the annotations and the pull-secret reference.
   */
  public void rewrittenPod(String namespace, String pod, String rewriter, String image) {
    rewrittenPod(namespace, pod, rewriter, image, Map.of(), List.of(), null);
  }

  /** The same, with the pod's {@code restartPolicy} ({@code null}: unset, i.e. Always). */
  public void rewrittenPod(
      String namespace, String pod, String rewriter, String image, String restartPolicy) {
    rewrittenPod(namespace, pod, rewriter, image, Map.of(), List.of(), restartPolicy);
  }

  /**
   * The same pod with further containers that kuik left alone ({@code name -> image}, in order),
   * pull Secrets of its own, listed before kuik's as the webhook appends its reference (every
   * container pulls with all of them), and a {@code restartPolicy} ({@code null}: unset, i.e.
   * Always).
   */
  public void rewrittenPod(
      String namespace,
      String pod,
      String rewriter,
      String image,
      Map<String, String> others,
      List<String> ownPullSecrets,
      String restartPolicy) {
    rewrittenPod(
        ADMIN, namespace, pod, rewriter, image, others, ownPullSecrets, restartPolicy, true);
  }

  /**
   * A tenant of {@code namespace}, a person whose Role there lets them create, change and delete
   * pods, and nothing else: what a namespace's developers hold on a shared cluster.
   */
  public Identity tenantOf(String namespace) {
    String name = "tenant-of-" + namespace;
    if (api().find(ADMIN, ResourceType.ROLE, namespace, name).isEmpty()) {
      ObjectNode role = Json.object();
      role.put("apiVersion", "rbac.authorization.k8s.io/v1");
      role.put("kind", "Role");
      role.putObject("metadata").put("name", name).put("namespace", namespace);
      ObjectNode rule = role.putArray("rules").addObject();
      rule.putArray("apiGroups").add("");
      rule.putArray("resources").add("pods");
      rule.putArray("verbs").add("get").add("create").add("patch").add("update").add("delete");
      api().create(ADMIN, role);
      ObjectNode binding = Json.object();
      binding.put("apiVersion", "rbac.authorization.k8s.io/v1");
      binding.put("kind", "RoleBinding");
      binding.putObject("metadata").put("name", name).put("namespace", namespace);
      binding
          .putObject("roleRef")
          .put("apiGroup", "rbac.authorization.k8s.io")
          .put("kind", "Role")
          .put("name", name);
      binding
          .putArray("subjects")
          .addObject()
          .put("apiGroup", "rbac.authorization.k8s.io")
          .put("kind", "User")
          .put("name", name);
      api().create(ADMIN, binding);
    }
    return Identity.person(name);
  }

  /**
   * A pod that a tenant of {@code namespace} creates already looking as the webhook leaves a pod it
   * rewrote: the label, the annotations naming {@code rewriter}, the reference and {@code image}.
   * The webhook sees its creation and leaves it alone, as it leaves any pod already routed.
   */
  public void forgedPod(String namespace, String pod, String rewriter, String image) {
    rewrittenPod(
        tenantOf(namespace), namespace, pod, rewriter, image, Map.of(), List.of(), null, true);
  }

  /**
   * A pod as a webhook older than the label left it: the annotations and the reference, without
   * {@code kuik.enix.io/images-rewritten}, so the syncer's informer never selects it.
   */
  public void rewrittenPodWithoutLabel(
      String namespace, String pod, String rewriter, String image) {
    rewrittenPod(ADMIN, namespace, pod, rewriter, image, Map.of(), List.of(), null, false);
  }

  /** {@code kubectl label pod}: a merge patch of one label. */
  public void labelPod(String namespace, String pod, String key, String value) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putObject("labels").put(key, value);
    api().mergePatch(ADMIN, ResourceType.POD, namespace, pod, patch, "kubectl-label");
  }

  private void rewrittenPod(
      Identity who,
      String namespace,
      String pod,
      String rewriter,
      String image,
      Map<String, String> others,
      List<String> ownPullSecrets,
      String restartPolicy,
      boolean labelled) {
    String[] kindAndName = rewriter.split("/", 2);
    RoutingKind kind =
        "ImageMirror".equals(kindAndName[0])
            ? RoutingKind.IMAGE_MIRROR
            : RoutingKind.IMAGE_ALTERNATIVE;
    ObjectNode object = Json.object();
    object.put("apiVersion", "v1");
    object.put("kind", "Pod");
    ObjectNode meta = object.putObject("metadata");
    meta.put("name", pod);
    meta.put("namespace", namespace);
    if (labelled) {
      meta.putObject("labels")
          .put(RewriteAnnotations.REWRITTEN_LABEL, RewriteAnnotations.REWRITTEN_LABEL_VALUE);
    }
    ObjectNode annotations = meta.putObject("annotations");
    annotations.put(
        RewriteAnnotations.ORIGINAL_IMAGES,
        RewriteAnnotations.writeMap(Map.of("app", "original.example/app:1")));
    annotations.put(
        RewriteAnnotations.REWRITTEN_BY, RewriteAnnotations.writeMap(Map.of("app", rewriter)));
    annotations.put(
        RewriteAnnotations.REASON,
        RewriteAnnotations.writeMap(Map.of("app", "the original was unavailable")));
    ObjectNode spec = object.putObject("spec");
    ArrayNode containers = spec.putArray("containers");
    ObjectNode container = containers.addObject();
    container.put("name", "app");
    container.put("image", image);
    // Every start pulls, so each pod shows whether the credential was in place for it.
    container.put("imagePullPolicy", "Always");
    others.forEach(
        (name, other) -> {
          ObjectNode added = containers.addObject();
          added.put("name", name);
          added.put("image", other);
          added.put("imagePullPolicy", "Always");
        });
    ArrayNode pullSecrets = spec.putArray("imagePullSecrets");
    ownPullSecrets.forEach(name -> pullSecrets.addObject().put("name", name));
    pullSecrets.addObject().put("name", SecretNames.injected(kind.kind(), kindAndName[1]));
    if (restartPolicy != null) {
      spec.put("restartPolicy", restartPolicy);
    }
    api().create(who, object);
  }

  public void deletePod(String namespace, String pod) {
    api().delete(ADMIN, ResourceType.POD, namespace, pod);
  }

  /**
   * The process of the pod's container {@code app} exits with {@code exitCode}; the kubelet
   * restarts it or ends the pod Succeeded or Failed, as its restart policy says.
   */
  public void containerExits(String namespace, String pod, int exitCode) {
    cluster.kubelet().containerExits(namespace, pod, "app", exitCode);
  }

  /** The pod's phase as stored ({@code status.phase}), null before the kubelet wrote one. */
  public String podPhase(String namespace, String pod) {
    return Json.text(pod(namespace, pod), "status", "phase");
  }

  /**
   * Runs the world until the pod is Running; returns how long that took, or empty past the limit.
   */
  public Optional<Duration> runUntilRunning(String namespace, String pod, Duration limit) {
    Instant start = now();
    Instant end = start.plus(limit);
    Duration step = Duration.ofMillis(100);
    while (!now().isAfter(end)) {
      if ("Running".equals(cluster.kubelet().phase(namespace, pod))) {
        return Optional.of(Duration.between(start, now()));
      }
      pass(step);
    }
    return Optional.empty();
  }

  /** Warning or Normal events recorded on a pod, as "reason: message". */
  public List<String> eventsOnPod(String namespace, String pod, String type) {
    List<String> out = new ArrayList<>();
    for (ObjectNode event : api().list(ADMIN, ResourceType.EVENT, namespace).items()) {
      if ("Pod".equals(Json.text(event, "involvedObject", "kind"))
          && pod.equals(Json.text(event, "involvedObject", "name"))
          && type.equals(Json.text(event, "type"))) {
        out.add(Json.text(event, "reason") + ": " + Json.text(event, "message"));
      }
    }
    return out;
  }

  /**
   * Why the kubelet keeps a container waiting ({@code ImagePullBackOff}, ...); null once started.
   */
  public String waitingReason(String namespace, String pod, String container) {
    return cluster.kubelet().waitingReason(namespace, pod, container);
  }

  public List<ObjectNode> pods(String namespace) {
    return api().list(ADMIN, ResourceType.POD, namespace).items();
  }

  // ---- faults -----------------------------------------------------------------------------------

  /** Every request answered 503 ServiceUnavailable for the duration, starting now. */
  public void outage(Duration duration) {
    api().faults().failWhile(request -> true, StatusReason.SERVICE_UNAVAILABLE);
    cluster.loop().schedule(duration, "outage ends", () -> api().faults().clear());
  }

  // ---- registries and the kubelet ------------------------------------------------------------

  /** The registry holds these images and serves them only to this credential. */
  public void registryServes(String host, List<String> images, String username, String password) {
    Registry registry = cluster.registries().registry(host);
    for (String image : images) {
      ImageReference reference = parseImage(image);
      if (!reference.registry().equals(host)) {
        throw new IllegalArgumentException(image + " is not on " + host);
      }
      registry.push(reference.path(), reference.tag());
      registry.requireCredential(reference.path(), username, password);
    }
  }

  /** The registry holds these images and serves them to anyone. */
  public void registryServesAnonymously(String host, List<String> images) {
    Registry registry = cluster.registries().registry(host);
    for (String image : images) {
      ImageReference reference = parseImage(image);
      registry.push(reference.path(), reference.tag());
    }
  }

  public void registryDown(String host) {
    cluster.registries().registry(host).down();
  }

  public void registryUp(String host) {
    cluster.registries().registry(host).up();
  }

  /**
   * A pod submitted as a person or a controller would: its containers by name and image, in order,
   * pulled on every start. kuik's webhook sees it in the admission chain.
   */
  public void submitPod(
      String namespace,
      String pod,
      Map<String, String> containers,
      Map<String, String> annotations,
      List<String> pullSecrets) {
    submitPod(namespace, pod, containers, annotations, pullSecrets, null);
  }

  /** {@link #submitPod}, run as {@code serviceAccount} (null: none named, so {@code default}). */
  public void submitPod(
      String namespace,
      String pod,
      Map<String, String> containers,
      Map<String, String> annotations,
      List<String> pullSecrets,
      String serviceAccount) {
    ObjectNode object = Json.object();
    object.put("apiVersion", "v1");
    object.put("kind", "Pod");
    ObjectNode meta = object.putObject("metadata");
    meta.put("name", pod);
    meta.put("namespace", namespace);
    annotations.forEach(meta.putObject("annotations")::put);
    ObjectNode spec = object.putObject("spec");
    ArrayNode list = spec.putArray("containers");
    containers.forEach(
        (name, image) -> {
          ObjectNode container = list.addObject();
          container.put("name", name);
          container.put("image", image);
          container.put("imagePullPolicy", "Always");
        });
    if (!pullSecrets.isEmpty()) {
      ArrayNode refs = spec.putArray("imagePullSecrets");
      pullSecrets.forEach(name -> refs.addObject().put("name", name));
    }
    if (serviceAccount != null) {
      spec.put("serviceAccountName", serviceAccount);
    }
    api().create(ADMIN, object);
  }

  /**
   * The ServiceAccount lists these pull secrets (created, or changed when it exists, as the {@code
   * default} one always does).
   */
  public void serviceAccountPullSecrets(String namespace, String name, List<String> pullSecrets) {
    Optional<ObjectNode> live = api().find(ADMIN, ResourceType.SERVICE_ACCOUNT, namespace, name);
    ObjectNode account = live.orElseGet(Json::object);
    account.put("apiVersion", "v1");
    account.put("kind", "ServiceAccount");
    ObjectNode meta = Json.child(account, "metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    ArrayNode refs = account.putArray("imagePullSecrets");
    pullSecrets.forEach(secret -> refs.addObject().put("name", secret));
    if (live.isPresent()) {
      api().update(ADMIN, account);
    } else {
      api().create(ADMIN, account);
    }
  }

  public ObjectNode pod(String namespace, String pod) {
    return api().get(ADMIN, ResourceType.POD, namespace, pod);
  }

  /** One pull attempt of the kubelet; {@code username} null for an anonymous pull. */
  public record Pull(Instant at, String image, String username, String outcome) {
    public boolean succeeded() {
      return outcome.equals(Availability.AVAILABLE.name());
    }
  }

  public List<Pull> pullsOf(String namespace, String pod) {
    return cluster.kubelet().pullAttempts(namespace, pod).stream()
        .map(a -> new Pull(a.at(), a.image(), a.username(), a.outcome().name()))
        .toList();
  }

  // ---- other identities' writes, for the admission policy's stories ----------------------------

  /** A request's answer: 2xx, or the API server's refusal. */
  public record Answer(int code, String message) {
    public boolean passed() {
      return code < 400;
    }
  }

  /** Runs a request and captures the API server's answer instead of throwing. */
  public Answer attempt(Runnable request) {
    try {
      request.run();
      return new Answer(200, "");
    } catch (ApiException refused) {
      return new Answer(refused.code(), refused.getMessage());
    }
  }

  /** A docker-registry-shaped Secret manifest of any type, optionally with the managed-by label. */
  public static ObjectNode secretManifest(
      String namespace, String name, String type, Map<String, String> labels) {
    ObjectNode secret =
        secretObject(namespace, name, type, Map.of(".dockerconfigjson", "{\"auths\":{}}"));
    if (!labels.isEmpty()) {
      labels.forEach(((ObjectNode) secret.get("metadata")).putObject("labels")::put);
    }
    return secret;
  }

  /** Takes away the owner references of a Secret, as a person editing it would. */
  public void removeOwnerReferences(Identity who, String namespace, String name) {
    ObjectNode live = secret(namespace, name).orElseThrow();
    ((ObjectNode) live.get("metadata")).remove("ownerReferences");
    api().update(who, live);
  }

  /** Adds a finalizer to a Secret as {@code who}, as {@code kubectl patch} or an operator would. */
  public void addFinalizer(Identity who, String namespace, String name, String finalizer) {
    ObjectNode live = secret(namespace, name).orElseThrow();
    ObjectNode meta = (ObjectNode) live.get("metadata");
    ArrayNode finalizers =
        meta.has("finalizers") ? (ArrayNode) meta.get("finalizers") : meta.putArray("finalizers");
    finalizers.add(finalizer);
    api().update(who, live);
  }

  /** Changes one byte of a Secret's data as {@code who}, keeping everything else. */
  public void changeData(Identity who, String namespace, String name) {
    ObjectNode live = secret(namespace, name).orElseThrow();
    ((ObjectNode) live.get("data"))
        .put(
            ".dockerconfigjson",
            Base64.getEncoder()
                .encodeToString(
                    "{\"auths\":{\"evil.example\":{}}}".getBytes(StandardCharsets.UTF_8)));
    api().update(who, live);
  }

  public void deleteResourceOrphaning(String kind, String name) {
    api().delete(ADMIN, typeOf(kind), null, name, DeleteOptions.orphan());
  }

  /** {@code kubectl delete --cascade=foreground}. */
  public void deleteResourceInTheForeground(String kind, String name) {
    api().delete(ADMIN, typeOf(kind), null, name, DeleteOptions.foreground());
  }

  /** The routing resource as stored, if it exists. */
  public Optional<ObjectNode> resource(String kind, String name) {
    return api().find(ADMIN, typeOf(kind), null, name);
  }

  public String admissionPolicyName() {
    return PolicyFailure.policyOf(requireInstalled());
  }

  // ---- what happened ----------------------------------------------------------------------------

  /**
   * The pods whose claim of a rewrite the running syncer did not recognize, by the reason of the
   * metric kuik_syncer_rewrites_not_recognized, since it started.
   */
  public long rewritesNotRecognized(String reason) {
    return syncer()
        .syncer()
        .map(core -> core.counters().rewritesNotRecognized().getOrDefault(reason, 0L))
        .orElse(0L);
  }

  /** The first syncer instance's requests, from the trace. */
  public List<TraceRecord.Request> syncerRequests() {
    return requestsOf(syncer());
  }

  /** The applies one syncer instance sent to a Secret, successful or not. */
  public List<TraceRecord.Request> appliesOf(String instance, String namespace, String secret) {
    String target = "secrets " + namespace + "/" + secret;
    return requestsOf(syncer(instance)).stream()
        .filter(r -> r.action().equals("APPLY") && r.target().equals(target))
        .toList();
  }

  private List<TraceRecord.Request> requestsOf(SyncerHost host) {
    String actor = cluster.trace().actorOf(host.identity());
    List<TraceRecord.Request> out = new ArrayList<>();
    for (TraceRecord.Request r : cluster.trace().requests()) {
      if (actor.equals(r.actor())) {
        out.add(r);
      }
    }
    return out;
  }

  /** The syncer's applies of one Secret, successful or not. */
  public List<TraceRecord.Request> syncerApplies(String namespace, String secret) {
    String target = "secrets " + namespace + "/" + secret;
    return syncerRequests().stream()
        .filter(r -> r.action().equals("APPLY") && r.target().equals(target))
        .toList();
  }

  public long syncerAppliesSince(Instant since) {
    return syncerRequests().stream()
        .filter(r -> r.action().equals("APPLY") && r.target().startsWith("secrets "))
        .filter(r -> !r.at().isBefore(since))
        .count();
  }

  /** The status writes the syncer sent for a routing resource, successful or not. */
  public List<TraceRecord.Request> syncerStatusWrites(String kind, String name) {
    String target = typeOf(kind).resource() + "/status " + name;
    return syncerRequests().stream()
        .filter(r -> r.action().equals("APPLY") && r.target().equals(target))
        .toList();
  }

  /** The targets of the pod lists every syncer instance sent, label selector included. */
  public List<String> syncerPodLists() {
    return requestsOfEverySyncer().stream()
        .filter(r -> r.action().equals("LIST") && r.target().startsWith("pods "))
        .map(TraceRecord.Request::target)
        .toList();
  }

  /** Watch events of one pod handed to any syncer's pod informer. */
  public List<TraceRecord> syncerPodDeliveries(String namespace, String pod) {
    String target = "pods " + namespace + "/" + pod;
    return cluster
        .trace()
        .where(
            r ->
                r instanceof TraceRecord.WatchDelivery delivery
                    && delivery.actor().startsWith("syncer")
                    && delivery.actor().endsWith("/pods")
                    && delivery.target().equals(target));
  }

  /** Reads of Secrets (get, list, watch) the syncer made outside the install namespace. */
  public List<TraceRecord.Request> syncerSecretReadsOutside(String namespace) {
    return syncerRequests().stream()
        .filter(r -> List.of("GET", "LIST", "WATCH").contains(r.action()))
        .filter(r -> r.target().startsWith("secrets"))
        .filter(r -> !r.target().startsWith("secrets " + namespace + "/"))
        .toList();
  }

  /** Deletions sent by any syncer instance, refused or not: the syncer must never send one. */
  public List<TraceRecord.Request> syncerDeletes() {
    return requestsOfEverySyncer().stream().filter(r -> r.action().equals("DELETE")).toList();
  }

  /**
   * Writes of any syncer instance that an admission policy refused: any of them fails a healthy
   * scenario.
   */
  public List<TraceRecord.Request> syncerWritesRefusedByThePolicy() {
    return requestsOfEverySyncer().stream()
        .filter(
            r ->
                !r.succeeded()
                    && r.message() != null
                    && r.message().contains("ValidatingAdmissionPolicy"))
        .toList();
  }

  private List<TraceRecord.Request> requestsOfEverySyncer() {
    List<TraceRecord.Request> all = new ArrayList<>(syncerRequests());
    otherInstances.values().forEach(host -> all.addAll(requestsOf(host)));
    return all;
  }

  public String timeline() {
    return cluster.trace().timeline();
  }

  /**
   * The timeline a person reads first ({@link Storyline}): the administrator's setup in one line,
   * every write, read of a Secret, pull, restart and fault, the webhook's decision on each pod and
   * every Event by its reason, without the informers' lists, watches and watch deliveries.
   */
  public String storyline() {
    return new Storyline(
            cluster.trace(),
            webhook == null ? List.of() : webhook.admissions(),
            (namespace, name) -> api().state().get(ResourceType.EVENT, namespace, name))
        .render();
  }

  // ---- helpers
  // ------------------------------------------------------------------------------------

  private static ImageReference parseImage(String image) {
    try {
      return ImageReference.parse(image);
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private Release requireInstalled() {
    if (release == null) {
      throw new IllegalStateException(
          "kuik is not installed: start with 'Given kuik is installed in the namespace ...'");
    }
    return release;
  }

  private void putSecret(String namespace, String name, String type, Map<String, String> data) {
    ObjectNode secret = secretObject(namespace, name, type, data);
    Optional<ObjectNode> live = secret(namespace, name);
    if (live.isPresent()) {
      secret.set("metadata", live.get().get("metadata"));
      api().update(ADMIN, secret);
    } else {
      api().create(ADMIN, secret);
    }
  }

  private static ObjectNode secretObject(
      String namespace, String name, String type, Map<String, String> data) {
    ObjectNode secret = Json.object();
    secret.put("apiVersion", "v1");
    secret.put("kind", "Secret");
    ObjectNode meta = secret.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    secret.put("type", type);
    ObjectNode encoded = secret.putObject("data");
    new LinkedHashMap<>(data)
        .forEach(
            (k, v) ->
                encoded.put(
                    k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
    return secret;
  }

  private static ObjectNode resourceObject(String kind, String name, String specYaml) {
    ObjectNode body = Json.yaml(specYaml);
    ObjectNode object = Json.object();
    object.put("apiVersion", "kuik.enix.io/v1alpha1");
    object.put("kind", kind);
    object.putObject("metadata").put("name", name);
    if (body.has("spec")) {
      object.set("spec", body.get("spec"));
    }
    return object;
  }

  private static ResourceType typeOf(String kind) {
    if (kind.equals("ImageAlternative")) {
      return ResourceType.IMAGE_ALTERNATIVE;
    }
    if (kind.equals("ImageMirror")) {
      return ResourceType.IMAGE_MIRROR;
    }
    throw new IllegalArgumentException("not a routing kind: " + kind);
  }

  private static ObjectNode withoutServerFields(ObjectNode stored) {
    ObjectNode copy = stored.deepCopy();
    ObjectNode meta = (ObjectNode) copy.get("metadata");
    for (String field :
        List.of("uid", "resourceVersion", "creationTimestamp", "managedFields", "generation")) {
      meta.remove(field);
    }
    return copy;
  }
}
