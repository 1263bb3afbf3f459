package io.kuik.kube.webhook;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kuik.kube.SlimStore;
import io.kuik.model.PullSecretGate;
import io.kuik.model.RewriteAnnotations;
import io.kuik.webhook.GateBound;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the webhook's process reads of pods for the gate's bound
 * (docs/decisions/0061-what-the-webhook-reads-of-pods.md): only the pods the webhook labelled
 * rewritten and that no node runs yet ({@code spec.nodeName} empty, a field selector the API server
 * applies), listed in small pages, and of each only a record of a few hundred bytes: namespace,
 * name, uid, creation, whether it is being deleted, and where its gate is. Whatever a tenant puts
 * in such a pod (a megabyte of annotations or env values), the informer's cache keeps the record,
 * as the syncer's keeps its own (decision 0032); the object itself lives only while its watch event
 * is read.
 */
final class WatchedPods {

  /**
   * Pods a list page holds at most: a tenant's pod may weigh over a megabyte, and a page is read
   * whole before its pods become records.
   */
  static final long PAGE = 20;

  /** A pod as the bound reads it; {@code gate} is the index of kuik's gate, -1 without it. */
  record Watched(
      String namespace, String name, String uid, Instant created, boolean deleting, int gate) {

    /** The pod as the bound knows it; null when it is not (or no longer) waiting on kuik's gate. */
    GateBound.GatedPod gated() {
      return gate < 0 || deleting || uid == null || created == null
          ? null
          : new GateBound.GatedPod(namespace, name, uid, created, gate);
    }
  }

  private WatchedPods() {}

  /** The informer of those pods, whose cache keeps {@link Watched} records only. */
  static SharedIndexInformer<Pod> informer(KubernetesClient client) {
    return client
        .pods()
        .inAnyNamespace()
        .withLabel(RewriteAnnotations.REWRITTEN_LABEL, RewriteAnnotations.REWRITTEN_LABEL_VALUE)
        .withField("spec.nodeName", "")
        .withLimit(PAGE)
        .runnableInformer(0)
        .removeNamespaceIndex()
        .itemStore(new SlimStore<>(WatchedPods::record, WatchedPods::pod, null, null));
  }

  static Watched record(Pod pod) {
    List<String> gates = new ArrayList<>();
    if (pod.getSpec() != null) {
      pod.getSpec()
          .getSchedulingGates()
          .forEach(g -> gates.add(g == null ? "" : String.valueOf(g.getName())));
    }
    String created = pod.getMetadata().getCreationTimestamp();
    return new Watched(
        pod.getMetadata().getNamespace(),
        pod.getMetadata().getName(),
        pod.getMetadata().getUid(),
        created == null ? null : Instant.parse(created),
        pod.getMetadata().getDeletionTimestamp() != null,
        PullSecretGate.indexIn(gates));
  }

  /** A minimal pod that {@link #record} reads back as {@code record}. */
  static Pod pod(Watched record, String resourceVersion) {
    List<PodSchedulingGate> gates = new ArrayList<>();
    for (int i = 0; i < record.gate(); i++) {
      gates.add(new PodSchedulingGate("kuik.enix.io/another-gate-" + i));
    }
    if (record.gate() >= 0) {
      gates.add(new PodSchedulingGate(PullSecretGate.NAME));
    }
    return new PodBuilder()
        .withMetadata(
            new ObjectMetaBuilder()
                .withNamespace(record.namespace())
                .withName(record.name())
                .withUid(record.uid())
                .withResourceVersion(resourceVersion)
                .withCreationTimestamp(
                    record.created() == null ? null : record.created().toString())
                .withDeletionTimestamp(record.deleting() ? "1970-01-01T00:00:00Z" : null)
                .build())
        .withNewSpec()
        .withSchedulingGates(gates)
        .endSpec()
        .build();
  }
}
