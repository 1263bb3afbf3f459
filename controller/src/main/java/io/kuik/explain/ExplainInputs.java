package io.kuik.explain;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.ResourceId;
import io.kuik.model.Validated;
import io.kuik.model.crd.RoutingResourceStatus.CredentialStatus;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code kuik explain} could read, and what it could not.
 *
 * @param object {@code Pod namespace/name} or {@code Deployment namespace/name}
 * @param pod the pod as stored, or a Deployment's template as a pod of its namespace
 * @param admitted true for a stored pod (the webhook saw it), false for a template
 * @param namespaceLabels empty when the namespace could not be read
 * @param resources every ImageAlternative and ImageMirror read, validated
 * @param credentials what their status says each registry answered a trial of each injecting
 *     entry's credential, by resource
 * @param clusterSecrets the {@code secretRef} Secrets read in the cluster resource namespace
 * @param namespacePods the pods of the namespace (what an OnFailure Secret holds depends on them)
 * @param pullSecrets the pod's own pull Secrets that could be read, by name
 * @param unreadable one line per read refused or failed, saying what was done without it
 */
public record ExplainInputs(
    String object,
    Pod pod,
    boolean admitted,
    Optional<Map<String, String>> namespaceLabels,
    List<Validated> resources,
    Map<ResourceId, List<CredentialStatus>> credentials,
    Map<String, Secret> clusterSecrets,
    List<Pod> namespacePods,
    Map<String, Secret> pullSecrets,
    List<String> unreadable) {

  public ExplainInputs {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(namespaceLabels, "namespaceLabels");
    resources = List.copyOf(resources);
    credentials = Map.copyOf(credentials);
    clusterSecrets = Map.copyOf(clusterSecrets);
    namespacePods = List.copyOf(namespacePods);
    pullSecrets = Map.copyOf(pullSecrets);
    unreadable = List.copyOf(unreadable);
  }

  String namespace() {
    return pod.getMetadata().getNamespace();
  }
}
