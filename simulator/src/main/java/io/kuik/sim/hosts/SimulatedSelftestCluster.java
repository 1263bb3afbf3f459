package io.kuik.sim.hosts;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kuik.selftest.SelftestCluster;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * The production selftest's {@link SelftestCluster} in the simulated cluster: every read and every
 * dry-run create is a request to the simulated API server under the test's own identity, so the
 * chart's RBAC, the admission policy and the pod webhook answer it as they would the real pod. A
 * component's {@code /readyz} through its Service is answered by the host that runs it: ready, not
 * ready yet (503), or no endpoint at all when its process is down. The simulator runs each
 * component as one process and keeps no pod for it: a Deployment's pods are that one process, named
 * {@code <deployment>-0}, whose {@code /readyz} its host answers (after a list of pods that the
 * test's RBAC must allow).
 */
public final class SimulatedSelftestCluster implements SelftestCluster {

  private final ApiServer api;
  private final Identity identity;
  private final Map<String, Supplier<Readyz>> services;
  private final Map<String, Supplier<Readyz>> pods;

  /**
   * @param services each Service's DNS name ({@code <name>.<namespace>.svc}) and what its
   *     component's {@code /readyz} answers now
   * @param pods each Deployment's name and what its pod's {@code /readyz} answers now
   */
  public SimulatedSelftestCluster(
      ApiServer api,
      Identity identity,
      Map<String, Supplier<Readyz>> services,
      Map<String, Supplier<Readyz>> pods) {
    this.api = Objects.requireNonNull(api, "api");
    this.identity = Objects.requireNonNull(identity, "identity");
    this.services = Map.copyOf(services);
    this.pods = Map.copyOf(pods);
  }

  /** What a syncer host's {@code /readyz} answers through its Service. */
  public static Supplier<Readyz> readyz(SyncerHost syncer) {
    return () ->
        !syncer.running()
            ? Readyz.unreachable("no endpoint: the syncer is not running")
            : syncer.ready()
                ? Readyz.ready()
                : Readyz.notReady(
                    503,
                    syncer
                        .bounds()
                        .filter(bounds -> !bounds.inPlace())
                        .map(bounds -> "writes held: " + bounds.why())
                        .orElse("informers not synced"));
  }

  /** What a webhook host's {@code /readyz} answers through its Service. */
  public static Supplier<Readyz> readyz(WebhookHost webhook) {
    return () ->
        webhook.running()
            ? Readyz.ready()
            : Readyz.unreachable("no endpoint: the webhook is not running");
  }

  @Override
  public Read<ValidatingAdmissionPolicy> admissionPolicy(String name) {
    return read(
        ResourceType.VALIDATING_ADMISSION_POLICY, null, name, ValidatingAdmissionPolicy.class);
  }

  @Override
  public Read<ValidatingAdmissionPolicyBinding> admissionPolicyBinding(String name) {
    return read(
        ResourceType.VALIDATING_ADMISSION_POLICY_BINDING,
        null,
        name,
        ValidatingAdmissionPolicyBinding.class);
  }

  @Override
  public Read<Deployment> deployment(String namespace, String name) {
    return read(ResourceType.DEPLOYMENT, namespace, name, Deployment.class);
  }

  @Override
  public DryRun dryRunCreate(HasMetadata object) {
    ObjectNode body = Json.MAPPER.valueToTree(object);
    Json.dropNulls(body);
    try {
      ObjectNode answer = api.createDryRun(identity, body);
      return DryRun.admitted(Json.MAPPER.treeToValue(answer, object.getClass()));
    } catch (ApiException e) {
      return DryRun.refused(e.code(), e.reason(), e.getMessage() == null ? "" : e.getMessage());
    }
  }

  @Override
  public Readyz readyz(URI url) {
    Supplier<Readyz> service = services.get(url.getHost());
    return service == null ? Readyz.unreachable("no such host: " + url.getHost()) : service.get();
  }

  @Override
  public Read<List<PodReadyz>> podsReadyz(String namespace, Deployment deployment) {
    try {
      api.list(identity, ResourceType.POD, namespace);
    } catch (ApiException e) {
      return Read.failed(e.code(), e.getMessage());
    }
    String name = deployment.getMetadata().getName();
    Supplier<Readyz> pod = pods.get(name);
    return pod == null
        ? Read.found(List.of())
        : Read.found(List.of(new PodReadyz(name + "-0", pod.get())));
  }

  @Override
  public Read<List<GenericKubernetesResource>> routingResources() {
    List<GenericKubernetesResource> all = new ArrayList<>();
    for (ResourceType type : List.of(ResourceType.IMAGE_ALTERNATIVE, ResourceType.IMAGE_MIRROR)) {
      try {
        for (ObjectNode item : api.list(identity, type, null).items()) {
          all.add(Json.MAPPER.treeToValue(item, GenericKubernetesResource.class));
        }
      } catch (ApiException e) {
        return e.code() == 404 ? Read.missing() : Read.failed(e.code(), e.getMessage());
      }
    }
    return Read.found(all);
  }

  private <T> Read<T> read(ResourceType type, String namespace, String name, Class<T> as) {
    try {
      return Read.found(Json.MAPPER.treeToValue(api.get(identity, type, namespace, name), as));
    } catch (ApiException e) {
      return e.code() == 404 ? Read.missing() : Read.failed(e.code(), e.getMessage());
    }
  }
}
