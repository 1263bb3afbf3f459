package io.kuik.syncer;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.DockerConfig;
import io.kuik.model.DockerConfigSecret;
import io.kuik.model.RoutingResource;
import io.kuik.model.SecretNames;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Builds the Secret a pair should hold (docs/behaviour.md#what-a-secret-holds): pure, and with
 * nothing that could change between two runs (no timestamps), so identical content means an
 * identical apply.
 */
final class DesiredSecrets {

  static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
  static final String MANAGED_BY = "kuik-secret-syncer";
  static final String API_VERSION = "kuik.enix.io/v1alpha1";

  /**
   * The Kubernetes limit on a Secret's data
   * (https://kubernetes.io/docs/concepts/configuration/secret/).
   */
  static final int MAX_DATA_BYTES = 1024 * 1024;

  private DesiredSecrets() {}

  static Secret desiredSecret(RoutingResource resource, String namespace, DockerConfig content) {
    var owner = new OwnerReference();
    owner.setApiVersion(API_VERSION);
    owner.setKind(resource.id().kind().kind());
    owner.setName(resource.id().name());
    owner.setUid(resource.uid());
    owner.setController(true);

    var meta = new ObjectMeta();
    meta.setName(SecretNames.injected(resource.id().kind().kind(), resource.id().name()));
    meta.setNamespace(namespace);
    meta.setLabels(Map.of(MANAGED_BY_LABEL, MANAGED_BY));
    meta.setOwnerReferences(List.of(owner));

    var secret = new Secret(); // apiVersion v1, kind Secret
    secret.setMetadata(meta);
    secret.setType(DockerConfigSecret.TYPE);
    secret.setData(Map.of(DockerConfigSecret.KEY, encode(content.toJson())));
    return secret;
  }

  /** The decoded size of the Secret's data, as the API server counts it against 1 MiB. */
  static int dataBytes(DockerConfig content) {
    return content.toJson().getBytes(StandardCharsets.UTF_8).length
        + DockerConfigSecret.KEY.length();
  }

  /**
   * A stable hash of everything the apply sends. Inputs are written in a fixed order, so the same
   * desired Secret always hashes the same.
   */
  /**
   * The first 64 bits of the SHA-256 of the pair's desired Secret: what the applied-content hash
   * compares. A long instead of 64 hex characters saves about 90 bytes per pair; two contents
   * colliding (one chance in 2^64 per change) would only delay a write until the pair's next
   * resync, which bypasses the hash.
   */
  static long hash(RoutingResource resource, String namespace, DockerConfig content) {
    String canonical =
        String.join("\n", namespace, resource.id().toString(), resource.uid(), content.toJson());
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest).getLong();
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException("every JVM has SHA-256", impossible);
    }
  }

  private static String encode(String json) {
    return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }
}
