package io.kuik.kube;

import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.Validated;

/**
 * What the informers announce, already typed: routing resources arrive converted once, on the
 * informer's thread, so that the core's thread only stores them.
 *
 * <p>Contract: called from the informers' threads, in each informer's own order; an implementation
 * hands the change over and returns at once.
 */
interface ClusterEvents {

  void routingResourceChanged(Validated resource);

  void routingResourceDeleted(ResourceId id);

  void namespaceChanged(String name);

  void namespaceDeleted(String name);

  /** A pod added ({@code before} null), changed, or gone ({@code after} null). */
  void podChanged(RewrittenPod before, RewrittenPod after);

  /** A Secret of the cluster resource namespace was added, changed or deleted. */
  void clusterSecretChanged(String name);
}
