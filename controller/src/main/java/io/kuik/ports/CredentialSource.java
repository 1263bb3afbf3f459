package io.kuik.ports;

import io.fabric8.kubernetes.api.model.Secret;
import java.util.Optional;

/**
 * The Secrets of the cluster resource namespace, where the entries' {@code secretRef} Secrets live:
 * what the webhook probes candidate registries with. The production driver answers from the
 * webhook's informer on that namespace; {@link InformerView#clusterSecret} has the same shape.
 *
 * <p>Contract: local reads (no request to the API server), never block, never fail; the view may
 * lag the API server.
 */
@FunctionalInterface
public interface CredentialSource {

  Optional<Secret> clusterSecret(String name);
}
