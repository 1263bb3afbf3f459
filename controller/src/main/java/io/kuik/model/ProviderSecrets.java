package io.kuik.model;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where a minted credential is kept: a {@code kuik-provider-<provider>-<hash>} Secret of the
 * install namespace, one per provider and {@link ProviderCredential.Slot}, of type {@code
 * kubernetes.io/dockerconfigjson} (the admission policy lets only the syncer write it, there only)
 * with the answer's auths in {@code .dockerconfigjson}, and beside it what the credential is:
 * provider, slot, configuration digest, when it was minted and when it expires. Those are data, not
 * annotations, so that the policy, which keeps anyone but the syncer from changing a reserved
 * Secret's data, keeps them from stretching an expiry too
 * (docs/decisions/0068-provider-credentials-kept-in-the-install-namespace.md).
 *
 * <p>The name is a function of provider and slot alone, so the syncer after a restart and the
 * webhook find a credential by computing its name: no list, no label selector.
 */
public final class ProviderSecrets {

  static final String PROVIDER = "provider";
  static final String SLOT_TYPE = "cache-key-type";
  static final String SLOT_KEY = "cache-key";
  static final String DIGEST = "config-digest";
  static final String MINTED = "minted-at";
  static final String EXPIRES = "expires-at";
  static final String LEAVES = "leaves-at";

  private static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
  private static final String MANAGED_BY = "kuik-secret-syncer";

  private ProviderSecrets() {}

  /** The Secret of {@code provider}'s credential for {@code slot}. */
  public static String name(String provider, ProviderCredential.Slot slot) {
    return SecretNames.provider(
        provider + "-" + sha256Hex(provider + "\n" + slot.type() + "\n" + slot.key()));
  }

  /** The Secret that keeps {@code credential} in {@code namespace}, the install namespace. */
  public static Secret secret(String namespace, ProviderCredential credential) {
    return secret(namespace, credential, credential.expiresAt());
  }

  /**
   * The Secret that keeps {@code credential} in {@code namespace}, saying it leaves every {@code
   * kuik-inject-*} Secret at {@code leavesAt} (its expiry less the validity bound): the webhook
   * probes with it only until then, as pods pull with it only until then.
   */
  public static Secret secret(String namespace, ProviderCredential credential, Instant leavesAt) {
    var meta = new ObjectMeta();
    meta.setName(name(credential.provider(), credential.slot()));
    meta.setNamespace(namespace);
    meta.setLabels(Map.of(MANAGED_BY_LABEL, MANAGED_BY));
    Map<String, String> data = new LinkedHashMap<>();
    data.put(DockerConfigSecret.KEY, encode(new DockerConfig(credential.auths()).toJson()));
    data.put(PROVIDER, encode(credential.provider()));
    data.put(SLOT_TYPE, encode(credential.slot().type().name()));
    data.put(SLOT_KEY, encode(credential.slot().key()));
    data.put(DIGEST, encode(credential.configDigest()));
    data.put(MINTED, encode(credential.mintedAt().toString()));
    data.put(EXPIRES, encode(credential.expiresAt().toString()));
    data.put(LEAVES, encode(leavesAt.toString()));
    var secret = new Secret();
    secret.setMetadata(meta);
    secret.setType(DockerConfigSecret.TYPE);
    secret.setData(data);
    return secret;
  }

  /**
   * The credential a Secret keeps; empty when it is not one this class wrote (a field missing or
   * malformed) or its name is not the one its provider and slot give.
   */
  public static Optional<ProviderCredential> read(Secret secret) {
    Map<String, String> data = secret.getData();
    if (data == null || !DockerConfigSecret.TYPE.equals(secret.getType())) {
      return Optional.empty();
    }
    try {
      String provider = decode(data.get(PROVIDER));
      ProviderCredential.Slot slot =
          new ProviderCredential.Slot(
              ProviderExchange.CacheKeyType.valueOf(decode(data.get(SLOT_TYPE))),
              decode(data.get(SLOT_KEY)));
      if (secret.getMetadata() == null
          || !name(provider, slot).equals(secret.getMetadata().getName())) {
        return Optional.empty();
      }
      DockerConfig auths = DockerConfig.parse(decode(data.get(DockerConfigSecret.KEY)));
      return Optional.of(
          new ProviderCredential(
              provider,
              slot,
              decode(data.get(DIGEST)),
              auths.auths(),
              Instant.parse(decode(data.get(MINTED))),
              Instant.parse(decode(data.get(EXPIRES)))));
    } catch (IllegalArgumentException
        | NullPointerException
        | DateTimeParseException
        | InvalidDockerConfigException unreadable) {
      return Optional.empty();
    }
  }

  /**
   * When the credential a Secret keeps leaves the {@code kuik-inject-*} Secrets: its {@code
   * leaves-at}, else its expiry; empty when it keeps none.
   */
  public static Optional<Instant> leavesAt(Secret secret) {
    Optional<ProviderCredential> kept = read(secret);
    if (kept.isEmpty()) {
      return Optional.empty();
    }
    try {
      String leaves = secret.getData().get(LEAVES);
      return Optional.of(leaves == null ? kept.get().expiresAt() : Instant.parse(decode(leaves)));
    } catch (IllegalArgumentException | DateTimeParseException unreadable) {
      return Optional.of(kept.get().expiresAt());
    }
  }

  /**
   * The credentials kept for {@code provider} that may serve {@code image}, in the kubelet's order
   * of lookup (image, registry, every image), read from {@code secrets} by name.
   */
  public static List<ProviderCredential> kept(
      String provider, String image, Function<String, Optional<Secret>> secrets) {
    return ProviderCredential.Slot.of(image).stream()
        .flatMap(
            slot -> secrets.apply(name(provider, slot)).flatMap(ProviderSecrets::read).stream())
        .toList();
  }

  private static String encode(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }

  private static String sha256Hex(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of()
          .formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)))
          .substring(0, 10);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
