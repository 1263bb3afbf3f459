package io.kuik.selftest;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kuik.model.RoutingKind;
import io.kuik.model.crd.ImageAlternative;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The selftest's {@link SelftestCluster} on fabric8: GETs and LISTs, creates with {@code
 * dryRun=All}, and {@code /readyz} over the JDK's HTTP client. Each answer of the API server,
 * refusals included, comes back as a value.
 */
public final class FabricSelftestCluster implements SelftestCluster {

  /** How long {@code /readyz} may take: a Service that does not answer within it is unreachable. */
  static final Duration READYZ_TIMEOUT = Duration.ofSeconds(3);

  private final KubernetesClient client;
  private final HttpClient http;

  public FabricSelftestCluster(KubernetesClient client) {
    this.client = client;
    this.http = HttpClient.newBuilder().connectTimeout(READYZ_TIMEOUT).build();
  }

  @Override
  public Read<ValidatingAdmissionPolicy> admissionPolicy(String name) {
    return read(
        () ->
            client.admissionRegistration().v1().validatingAdmissionPolicies().withName(name).get());
  }

  @Override
  public Read<ValidatingAdmissionPolicyBinding> admissionPolicyBinding(String name) {
    return read(
        () ->
            client
                .admissionRegistration()
                .v1()
                .validatingAdmissionPolicyBindings()
                .withName(name)
                .get());
  }

  @Override
  public Read<Deployment> deployment(String namespace, String name) {
    return read(() -> client.apps().deployments().inNamespace(namespace).withName(name).get());
  }

  @Override
  public DryRun dryRunCreate(HasMetadata object) {
    try {
      return DryRun.admitted(client.resource(object).dryRun().create());
    } catch (KubernetesClientException e) {
      String reason =
          e.getStatus() == null || e.getStatus().getReason() == null
              ? ""
              : e.getStatus().getReason();
      return DryRun.refused(e.getCode(), reason, message(e));
    }
  }

  @Override
  public Readyz readyz(URI url) {
    HttpRequest request = HttpRequest.newBuilder(url).timeout(READYZ_TIMEOUT).GET().build();
    try {
      HttpResponse<String> answer =
          http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return answer.statusCode() == 200
          ? Readyz.ready()
          : Readyz.notReady(answer.statusCode(), answer.body());
    } catch (IOException e) {
      return Readyz.unreachable(
          e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Readyz.unreachable("interrupted");
    }
  }

  /** Pods asked, at most: the reason of the first few is the reason of all. */
  static final int PODS_ASKED = 3;

  @Override
  public Read<List<PodReadyz>> podsReadyz(String namespace, Deployment deployment) {
    var selector =
        deployment.getSpec() == null || deployment.getSpec().getSelector() == null
            ? null
            : deployment.getSpec().getSelector().getMatchLabels();
    if (selector == null || selector.isEmpty()) {
      return Read.missing();
    }
    Read<List<io.fabric8.kubernetes.api.model.Pod>> pods =
        read(() -> client.pods().inNamespace(namespace).withLabels(selector).list().getItems());
    if (!pods.isFound()) {
      return Read.failed(pods.code(), pods.message());
    }
    List<PodReadyz> answers = new ArrayList<>();
    for (io.fabric8.kubernetes.api.model.Pod pod : pods.object()) {
      if (answers.size() == PODS_ASKED) {
        break;
      }
      String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
      Integer port = healthPort(pod);
      String name = pod.getMetadata().getName();
      answers.add(
          new PodReadyz(
              name,
              ip == null || port == null
                  ? Readyz.unreachable("no address yet")
                  : readyz(URI.create("http://" + ip + ":" + port + "/readyz"))));
    }
    return Read.found(answers);
  }

  /** The container port named {@code health}, where the chart serves /readyz. */
  private static Integer healthPort(io.fabric8.kubernetes.api.model.Pod pod) {
    if (pod.getSpec() == null) {
      return null;
    }
    for (var container : pod.getSpec().getContainers()) {
      for (var port :
          container.getPorts() == null
              ? List.<io.fabric8.kubernetes.api.model.ContainerPort>of()
              : container.getPorts()) {
        if ("health".equals(port.getName())) {
          return port.getContainerPort();
        }
      }
    }
    return null;
  }

  @Override
  public Read<List<GenericKubernetesResource>> routingResources() {
    List<GenericKubernetesResource> all = new ArrayList<>();
    for (RoutingKind kind : RoutingKind.values()) {
      // Named in full, so that fabric8 asks no discovery question first: both kinds are
      // cluster-scoped, their plural the lower-cased kind and an s.
      ResourceDefinitionContext context =
          new ResourceDefinitionContext.Builder()
              .withGroup(ImageAlternative.GROUP)
              .withVersion(ImageAlternative.VERSION)
              .withKind(kind.kind())
              .withPlural(kind.lowerName() + "s")
              .withNamespaced(false)
              .build();
      Read<List<GenericKubernetesResource>> items =
          read(() -> client.genericKubernetesResources(context).list().getItems());
      if (!items.isFound()) {
        return items;
      }
      all.addAll(items.object());
    }
    return Read.found(all);
  }

  private static <T> Read<T> read(Supplier<T> get) {
    try {
      T object = get.get();
      return object == null ? Read.missing() : Read.found(object);
    } catch (KubernetesClientException e) {
      return e.getCode() == 404 ? Read.missing() : Read.failed(e.getCode(), message(e));
    }
  }

  /** The API server's own message when it sent a Status, else fabric8's. */
  private static String message(KubernetesClientException e) {
    if (e.getStatus() != null && e.getStatus().getMessage() != null) {
      return e.getStatus().getMessage();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
