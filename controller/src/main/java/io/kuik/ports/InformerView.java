package io.kuik.ports;

import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.Validated;
import java.util.Collection;
import java.util.Optional;

/**
 * What the informers hold: the syncer's only view of the cluster. It never reads a Secret outside
 * the cluster resource namespace because this view has none to give
 * (docs/behaviour.md#what-the-syncer-may-read).
 *
 * <p>It hands out the core's own records ({@link ObservedNamespace}, {@link RewrittenPod}), not the
 * API's objects, so each driver keeps of the cluster only what the core reads
 * (docs/decisions/0032-only-rewritten-pods-and-slim-records.md).
 *
 * <p>Contract: reads are local (no request to the API server), never block and never fail; the view
 * may lag the API server, and every change it shows is also announced to the core as an input,
 * after the view already shows it.
 */
public interface InformerView {

  /** Every ImageAlternative and ImageMirror, valid or not. */
  Collection<Validated> routingResources();

  Optional<Validated> routingResource(ResourceId id);

  Collection<ObservedNamespace> namespaces();

  Optional<ObservedNamespace> namespace(String name);

  /**
   * The pods of one namespace that the webhook rewrote (the informer selects its label), as the
   * core's own records: nothing of a pod but what the syncer decides with.
   */
  Collection<RewrittenPod> pods(String namespace);

  /** A Secret of the cluster resource namespace, where the secretRef Secrets live. */
  Optional<Secret> clusterSecret(String name);
}
