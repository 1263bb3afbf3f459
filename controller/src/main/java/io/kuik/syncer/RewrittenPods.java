package io.kuik.syncer;

import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import java.util.LinkedHashSet;
import java.util.Set;

/** Which pairs a pod's change can touch: the resources it claims rewrote some of its containers. */
final class RewrittenPods {

  private RewrittenPods() {}

  /** The resources that rewrote some container of the pod, live or not. */
  static Set<ResourceId> rewriters(RewrittenPod pod) {
    Set<ResourceId> ids = new LinkedHashSet<>();
    pod.containers().values().forEach(c -> ids.add(c.rewriter()));
    return ids;
  }
}
