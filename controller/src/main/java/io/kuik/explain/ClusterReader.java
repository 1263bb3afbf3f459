package io.kuik.explain;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kuik.explain.Explain.NothingToExplain;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResources;
import io.kuik.model.Validated;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.ImageMirror;
import io.kuik.model.crd.RoutingResourceStatus;
import io.kuik.model.crd.RoutingResourceStatus.CredentialStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads what {@code kuik explain} needs, with GET and LIST only: the pod (or Deployment), its
 * namespace, the routing resources, the namespace's pods, the {@code secretRef} Secrets of the
 * cluster resource namespace, and the pod's own pull Secrets. A read the caller may not make (403)
 * or that fails is noted and skipped; only the pod itself is required.
 */
final class ClusterReader {

  private final KubernetesClient client;
  private final String clusterResourceNamespace;
  private final List<String> unreadable = new ArrayList<>();

  ClusterReader(KubernetesClient client, String clusterResourceNamespace) {
    this.client = client;
    this.clusterResourceNamespace = clusterResourceNamespace;
  }

  ExplainInputs pod(String namespace, String name) throws NothingToExplain {
    Pod pod =
        required(
            "pod " + namespace + "/" + name,
            () -> client.pods().inNamespace(namespace).withName(name).get());
    return inputs("Pod " + namespace + "/" + name, pod, true);
  }

  ExplainInputs deployment(String namespace, String name) throws NothingToExplain {
    Deployment deployment =
        required(
            "deployment " + namespace + "/" + name,
            () -> client.apps().deployments().inNamespace(namespace).withName(name).get());
    PodTemplateSpec template =
        deployment.getSpec() == null ? null : deployment.getSpec().getTemplate();
    if (template == null || template.getSpec() == null) {
      throw new NothingToExplain("deployment " + namespace + "/" + name + " has no pod template");
    }
    ObjectMeta meta = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
    Pod pod =
        new PodBuilder()
            .withNewMetadataLike(meta)
            .withNamespace(namespace)
            .endMetadata()
            .withSpec(template.getSpec())
            .build();
    return inputs("Deployment " + namespace + "/" + name, pod, false);
  }

  private ExplainInputs inputs(String object, Pod pod, boolean admitted) {
    String namespace = pod.getMetadata().getNamespace();
    Optional<Map<String, String>> labels =
        read(
                "namespace " + namespace,
                "its labels are taken as none: the targeting and the namespaceSelectors are"
                    + " judged without them",
                () -> client.namespaces().withName(namespace).get())
            .map(Namespace::getMetadata)
            .map(m -> m.getLabels() == null ? Map.<String, String>of() : m.getLabels());
    List<Validated> resources = new ArrayList<>();
    Map<ResourceId, List<CredentialStatus>> credentials = new HashMap<>();
    read(
            "imagealternatives.kuik.enix.io",
            "no ImageAlternative is taken into account",
            () -> client.resources(ImageAlternative.class).list().getItems())
        .ifPresent(
            items ->
                items.forEach(
                    r -> {
                      resources.add(RoutingResources.from(r));
                      credentials(RoutingKind.IMAGE_ALTERNATIVE, r, credentials);
                    }));
    read(
            "imagemirrors.kuik.enix.io",
            "no ImageMirror is taken into account",
            () -> client.resources(ImageMirror.class).list().getItems())
        .ifPresent(
            items ->
                items.forEach(
                    r -> {
                      resources.add(RoutingResources.from(r));
                      credentials(RoutingKind.IMAGE_MIRROR, r, credentials);
                    }));
    List<Pod> pods =
        read(
                "the pods of namespace " + namespace,
                "an OnFailure Secret is judged from this pod alone",
                () -> client.pods().inNamespace(namespace).list().getItems())
            .orElse(admitted ? List.of(pod) : List.of());
    Map<String, Secret> clusterSecrets = new LinkedHashMap<>();
    for (String name : Explainer.secretRefs(resources)) {
      read(
              "Secret " + clusterResourceNamespace + "/" + name,
              "entries that use it count as left out",
              () -> client.secrets().inNamespace(clusterResourceNamespace).withName(name).get())
          .ifPresent(s -> clusterSecrets.put(name, s));
    }
    Map<String, Secret> pullSecrets = new HashMap<>();
    if (pod.getSpec() != null && pod.getSpec().getImagePullSecrets() != null) {
      for (LocalObjectReference ref : pod.getSpec().getImagePullSecrets()) {
        String name = ref.getName();
        if (name == null) {
          continue;
        }
        read(
                "Secret " + namespace + "/" + name,
                name.startsWith("kuik-inject-")
                    ? "its keys are those the syncer writes there now"
                    : "its keys are not counted in what the kubelet offers",
                () -> client.secrets().inNamespace(namespace).withName(name).get())
            .ifPresent(s -> pullSecrets.put(name, s));
      }
    }
    return new ExplainInputs(
        object,
        pod,
        admitted,
        labels,
        resources,
        credentials,
        clusterSecrets,
        pods,
        pullSecrets,
        unreadable);
  }

  /** What the syncer wrote in the resource's status of each entry's credential, if anything. */
  private static void credentials(
      RoutingKind kind,
      io.fabric8.kubernetes.client.CustomResource<?, RoutingResourceStatus> resource,
      Map<ResourceId, List<CredentialStatus>> into) {
    RoutingResourceStatus status = resource.getStatus();
    if (status != null && status.credentials() != null && resource.getMetadata() != null) {
      into.put(new ResourceId(kind, resource.getMetadata().getName()), status.credentials());
    }
  }

  private <T> T required(String what, Supplier<T> get) throws NothingToExplain {
    try {
      T found = get.get();
      if (found == null) {
        throw new NothingToExplain(what + " not found");
      }
      return found;
    } catch (KubernetesClientException e) {
      throw new NothingToExplain("cannot read " + what + ": " + describe(e));
    }
  }

  /** The object, or empty when absent or unreadable; a refusal is noted with what it costs. */
  private <T> Optional<T> read(String what, String without, Supplier<T> get) {
    try {
      return Optional.ofNullable(get.get());
    } catch (KubernetesClientException e) {
      unreadable.add("cannot read " + what + " (" + describe(e) + "): " + without);
      return Optional.empty();
    }
  }

  private static String describe(KubernetesClientException e) {
    if (e.getCode() == 403) {
      return "403 Forbidden";
    }
    if (e.getCode() > 0) {
      return e.getCode() + (e.getStatus() == null ? "" : " " + e.getStatus().getReason());
    }
    return "no answer from the API server";
  }
}
