package io.kuik.registry;

import io.kuik.model.ImageReference;
import java.net.URI;
import java.util.Set;

/**
 * Where an image's registry answers the OCI distribution API: {@code docker.io} is served by {@code
 * registry-1.docker.io}; plain HTTP only for loopback registries and those the settings list, HTTPS
 * (with the JVM's trust store) for every other.
 */
public final class RegistryEndpoints {

  public static final String DOCKER_HUB = "docker.io";
  public static final String DOCKER_HUB_API = "registry-1.docker.io";
  private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]");

  private RegistryEndpoints() {}

  /** The base URI of the registry's API, e.g. {@code https://registry-1.docker.io}. */
  public static URI base(String registry, Set<String> insecureRegistries) {
    String authority = registry.equals(DOCKER_HUB) ? DOCKER_HUB_API : registry;
    String scheme = plainHttp(registry, insecureRegistries) ? "http" : "https";
    return URI.create(scheme + "://" + authority);
  }

  /**
   * {@code /v2/<name>/manifests/<reference>}: by digest when the image has one (what the kubelet
   * pulls), by tag otherwise.
   */
  public static URI manifest(ImageReference image, Set<String> insecureRegistries) {
    String reference = image.digest() != null ? image.digest() : image.tag();
    return base(image.registry(), insecureRegistries)
        .resolve("/v2/" + image.path() + "/manifests/" + reference);
  }

  /** Whether the registry ({@code host[:port]}) is spoken to over plain HTTP. */
  static boolean plainHttp(String registry, Set<String> insecureRegistries) {
    if (insecureRegistries.contains(registry)) {
      return true;
    }
    String host = registry;
    if (host.startsWith("[")) {
      host = host.substring(0, host.indexOf(']') + 1);
    } else if (host.indexOf(':') >= 0) {
      host = host.substring(0, host.indexOf(':'));
    }
    return LOOPBACK.contains(host);
  }
}
