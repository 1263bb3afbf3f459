package io.kuik.model;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A credential a provider plugin minted (docs/behaviour.md#provider-credentials): the registry
 * credentials of its answer, for which images ({@link Slot}, the kubelet's cache key), under which
 * configuration of the provider, and the span it is valid for: from when it was asked for to that
 * plus the {@code cacheDuration} the plugin gave (or the provider's {@code defaultCacheDuration}).
 *
 * <p>{@link #toString()} shows no credential.
 *
 * @param configDigest {@link CredentialProvider#configDigest()} of the configuration it was minted
 *     under
 */
public record ProviderCredential(
    String provider,
    Slot slot,
    String configDigest,
    Map<String, RegistryCredential> auths,
    Instant mintedAt,
    Instant expiresAt) {

  /**
   * Which images a minted credential serves, as the kubelet caches a plugin's answer: the {@code
   * key} is the image asked about, its registry host, or empty for every image.
   */
  public record Slot(ProviderExchange.CacheKeyType type, String key) {
    public Slot {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(key, "key");
    }

    /**
     * The slots that may hold a credential for {@code image}, in the order the kubelet looks them
     * up ({@code getCachedCredentials}): the image, its registry, every image.
     */
    public static List<Slot> of(String image) {
      return List.of(
          new Slot(ProviderExchange.CacheKeyType.Image, image),
          new Slot(ProviderExchange.CacheKeyType.Registry, registryOf(image)),
          new Slot(ProviderExchange.CacheKeyType.Global, ""));
    }

    /** The slot an answer of {@code type} to a request for {@code image} fills. */
    public static Slot answering(ProviderExchange.CacheKeyType type, String image) {
      return switch (type) {
        case Image -> new Slot(type, image);
        case Registry -> new Slot(type, registryOf(image));
        case Global -> new Slot(type, "");
      };
    }

    /** What it reads as: {@code Registry 123456789012.dkr.ecr.us-east-1.amazonaws.com}. */
    @Override
    public String toString() {
      return key.isEmpty() ? type.name() : type + " " + key;
    }

    /** The registry host of an image, as the kubelet parses it: before the first {@code /}. */
    private static String registryOf(String image) {
      int slash = image.indexOf('/');
      return slash < 0 ? image : image.substring(0, slash);
    }
  }

  public ProviderCredential {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(slot, "slot");
    Objects.requireNonNull(configDigest, "configDigest");
    auths = Map.copyOf(auths);
    Objects.requireNonNull(mintedAt, "mintedAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** How long it was minted for. */
  public Duration validity() {
    return Duration.between(mintedAt, expiresAt);
  }

  /** Half its validity after it was minted: when a new one is asked for. */
  public Instant refreshAt() {
    return mintedAt.plus(validity().dividedBy(2));
  }

  /** The credential the kubelet would pull {@code image} with, from these auths. */
  public Optional<RegistryCredential> credentialFor(String image) {
    return new DockerConfig(auths)
        .credentialFor(image)
        .map(DockerConfig.CredentialMatch::credential)
        .filter(c -> !c.isEmpty());
  }

  @Override
  public String toString() {
    return "ProviderCredential["
        + provider
        + " "
        + slot
        + ", "
        + auths.size()
        + " auths, minted "
        + mintedAt
        + ", expires "
        + expiresAt
        + "]";
  }
}
