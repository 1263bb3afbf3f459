package io.kuik.model;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * One credential provider plugin, in the shape of the kubelet's {@code CredentialProvider}
 * (https://kubernetes.io/docs/reference/config-api/kubelet-config.v1/#kubelet-config-k8s-io-v1-CredentialProvider):
 * the executable's {@code name} (in the plugin directory), the images it serves ({@code
 * matchImages}, matched as the kubelet's keyring matches keys), how long its credentials last when
 * the plugin does not say ({@code defaultCacheDuration}), the exec protocol's {@code apiVersion},
 * and the {@code args} and {@code env} it runs with. An {@code auth.provider} of a routing resource
 * names one by its {@code name}.
 *
 * <p>{@link #toString()} leaves the environment's values out: a value may be a secret.
 */
public record CredentialProvider(
    String name,
    List<String> matchImages,
    Duration defaultCacheDuration,
    String apiVersion,
    List<String> args,
    List<EnvVar> env) {

  /** The exec protocol's version kuik speaks. */
  public static final String PROTOCOL_V1 = "credentialprovider.kubelet.k8s.io/v1";

  /** One environment variable set for the plugin, on top of the syncer's own environment. */
  public record EnvVar(String name, String value) {
    public EnvVar {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return name + "=<value>";
    }
  }

  public CredentialProvider {
    Objects.requireNonNull(name, "name");
    matchImages = List.copyOf(matchImages);
    Objects.requireNonNull(defaultCacheDuration, "defaultCacheDuration");
    Objects.requireNonNull(apiVersion, "apiVersion");
    args = List.copyOf(args);
    env = List.copyOf(env);
  }

  /**
   * Whether the kubelet would call this plugin for {@code image} (a normalized repository path).
   */
  public boolean serves(String image) {
    for (String pattern : matchImages) {
      if (KeyringKey.of(pattern).map(key -> key.serves(image)).orElse(false)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A digest of everything that decides what the plugin answers (its name, images, default
   * duration, protocol, arguments and environment): a credential minted under another digest was
   * minted with another configuration, and is minted again at once
   * (docs/decisions/0068-provider-credentials-kept-in-the-install-namespace.md).
   */
  public String configDigest() {
    StringBuilder canonical = new StringBuilder();
    canonical.append(name).append('\n').append(apiVersion).append('\n');
    canonical.append(defaultCacheDuration.toNanos()).append('\n');
    matchImages.forEach(m -> canonical.append("match ").append(m).append('\n'));
    args.forEach(a -> canonical.append("arg ").append(a).append('\n'));
    env.forEach(
        e -> canonical.append("env ").append(e.name()).append('=').append(e.value()).append('\n'));
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 16);
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException("every JVM has SHA-256", impossible);
    }
  }
}
