package io.kuik.cli;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code --insecure-registries} of {@code kuik webhook} and {@code kuik syncer}: registries written
 * as in image references, comma-separated, that are reached over plain HTTP.
 */
final class InsecureRegistries {

  /** {@code host[:port]} or {@code [ipv6][:port]}, as the registry part of an image reference. */
  static final Pattern REGISTRY_HOST =
      Pattern.compile(
          "([A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*"
              + "|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?");

  private InsecureRegistries() {}

  /**
   * The hosts of {@code list}, blanks skipped; an entry that is not a registry is refused, saying
   * how to write it.
   */
  static Set<String> parse(String list) {
    Set<String> hosts = new LinkedHashSet<>();
    if (list == null) {
      return hosts;
    }
    for (String item : list.split(",", -1)) {
      String host = item.trim();
      if (host.isEmpty()) {
        continue;
      }
      if (!REGISTRY_HOST.matcher(host).matches()) {
        throw new IllegalArgumentException(
            "Invalid --insecure-registries entry '"
                + host
                + "': write a registry as in image references, host or host:port, without"
                + " http:// or a path (e.g. registry.local:5000)");
      }
      hosts.add(host);
    }
    return hosts;
  }
}
