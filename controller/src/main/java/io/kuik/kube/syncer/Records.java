package io.kuik.kube.syncer;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.PullSecretGate;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RewrittenPod;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The core's records of fabric8's Pods and Namespaces ({@link io.kuik.ports.InformerView}), and
 * back: a minimal object that reads as the same record, for what the informer asks of its cache.
 */
public final class Records {

  /** Any instant: the core only reads whether a deletionTimestamp is set. */
  private static final String DELETING = "1970-01-01T00:00:00Z";

  private Records() {}

  /** The record of a pod: its rewritten containers with the images they run now. */
  public static RewrittenPod pod(Pod pod) {
    Map<String, String> images = new LinkedHashMap<>();
    PodSpec spec = pod.getSpec();
    if (spec != null) {
      for (Container c : spec.getInitContainers()) {
        images.put(c.getName(), c.getImage());
      }
      for (Container c : spec.getContainers()) {
        images.put(c.getName(), c.getImage());
      }
      for (EphemeralContainer c : spec.getEphemeralContainers()) {
        images.put(c.getName(), c.getImage());
      }
    }
    return RewrittenPod.of(
        pod.getMetadata().getNamespace(),
        pod.getMetadata().getName(),
        pod.getMetadata().getUid(),
        pod.getStatus() == null ? null : pod.getStatus().getPhase(),
        pod.getMetadata().getDeletionTimestamp() != null,
        pod.getMetadata().getAnnotations(),
        images,
        spec == null
            ? -1
            : PullSecretGate.indexIn(
                spec.getSchedulingGates().stream()
                    .map(g -> g == null ? "" : g.getName())
                    .toList()));
  }

  /** A pod that {@link #pod(Pod)} reads back as {@code record}. */
  static Pod pod(RewrittenPod record, String resourceVersion) {
    Map<String, String> rewrittenBy = new LinkedHashMap<>();
    PodBuilder pod =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace(record.namespace())
            .withName(record.name())
            .withUid(record.uid())
            .withResourceVersion(resourceVersion)
            .withDeletionTimestamp(record.terminating() ? DELETING : null)
            .endMetadata()
            .withNewSpec()
            .endSpec()
            .withNewStatus()
            .withPhase(record.phase())
            .endStatus();
    record
        .containers()
        .forEach(
            (name, container) -> {
              rewrittenBy.put(name, container.rewriter().toString());
              pod.editSpec()
                  .addNewContainer()
                  .withName(name)
                  .withImage(container.image())
                  .endContainer()
                  .endSpec();
            });
    for (int i = 0; i < record.gate(); i++) {
      pod.editSpec().addNewSchedulingGate().withName("other-" + i).endSchedulingGate().endSpec();
    }
    if (record.gated()) {
      pod.editSpec()
          .addNewSchedulingGate()
          .withName(PullSecretGate.NAME)
          .endSchedulingGate()
          .endSpec();
    }
    return pod.editMetadata()
        .addToAnnotations(RewriteAnnotations.REWRITTEN_BY, RewriteAnnotations.writeMap(rewrittenBy))
        .addToLabels(RewriteAnnotations.REWRITTEN_LABEL, RewriteAnnotations.REWRITTEN_LABEL_VALUE)
        .endMetadata()
        .build();
  }

  public static ObservedNamespace namespace(Namespace namespace) {
    return new ObservedNamespace(
        namespace.getMetadata().getName(),
        namespace.getMetadata().getLabels(),
        namespace.getMetadata().getDeletionTimestamp() != null);
  }

  /** A namespace that {@link #namespace(Namespace)} reads back as {@code record}. */
  static Namespace namespace(ObservedNamespace record, String resourceVersion) {
    return new NamespaceBuilder()
        .withNewMetadata()
        .withName(record.name())
        .withLabels(record.labels())
        .withResourceVersion(resourceVersion)
        .withDeletionTimestamp(record.terminating() ? DELETING : null)
        .endMetadata()
        .build();
  }
}
