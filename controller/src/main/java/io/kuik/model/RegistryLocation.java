package io.kuik.model;

import java.util.List;

/**
 * Where an {@code auths} key or an image repository points, split the way the kubelet's keyring
 * compares them (kubernetes/kubernetes pkg/credentialprovider/keyring.go): the host's dot-separated
 * labels, the port, and the path's segments. A key may glob its host labels; an image may not.
 *
 * <p>{@code indexKey} is the string the kubelet indexes a key under (scheme and {@code /v1}/{@code
 * /v2} stripped): its reverse order is the kubelet's order of preference among matching keys.
 */
record RegistryLocation(
    String indexKey, List<String> hostLabels, String port, List<String> pathSegments) {

  RegistryLocation {
    hostLabels = List.copyOf(hostLabels);
    pathSegments = List.copyOf(pathSegments);
  }

  /**
   * Reads an {@code auths} key: {@code [http[s]://]host[:port][/path]}. The scheme only says how to
   * reach the registry and is dropped; a path that starts with the registry API version ({@code
   * /v1/}, {@code /v2/}, as Docker writes its legacy Hub key) loses that segment, so {@code
   * https://index.docker.io/v1/} is the bare host {@code index.docker.io}.
   */
  static RegistryLocation ofKey(String key) {
    String rest = key;
    if (rest.startsWith("https://")) {
      rest = rest.substring("https://".length());
    } else if (rest.startsWith("http://")) {
      rest = rest.substring("http://".length());
    }
    int slash = rest.indexOf('/');
    String authority = slash < 0 ? rest : rest.substring(0, slash);
    String path = slash < 0 ? "" : rest.substring(slash);
    if (path.startsWith("/v1/") || path.startsWith("/v2/")) {
      path = path.substring("/v1".length());
    }
    return of(authority, segments(path));
  }

  /**
   * Reads a normalized image repository, {@code host[:port]/path...}, without tag or digest.
   *
   * @throws IllegalArgumentException when the repository has no host or carries a tag or digest
   */
  static RegistryLocation ofImage(String image) {
    int slash = image.indexOf('/');
    String authority = slash < 0 ? image : image.substring(0, slash);
    String path = slash < 0 ? "" : image.substring(slash);
    if (authority.isEmpty() || path.contains(":") || path.contains("@")) {
      throw new IllegalArgumentException(
          "expected a normalized repository host[:port]/path without tag or digest, got \""
              + image
              + "\"");
    }
    return of(authority, segments(path));
  }

  /**
   * Whether this key serves the image: the same port (both absent counts as the same), as many host
   * labels, each matching its glob, and this key's path segments a prefix of the image's. The path
   * compares by whole segments, so {@code quay.io/acme} never serves {@code quay.io/acme-bar/x}
   * (the kubelet compares raw strings here; see docs/decisions.md).
   */
  boolean covers(RegistryLocation image) {
    if (!port.equals(image.port) || hostLabels.size() != image.hostLabels.size()) {
      return false;
    }
    for (int i = 0; i < hostLabels.size(); i++) {
      if (!LabelGlob.matches(hostLabels.get(i), image.hostLabels.get(i))) {
        return false;
      }
    }
    return pathSegments.size() <= image.pathSegments.size()
        && pathSegments.equals(image.pathSegments.subList(0, pathSegments.size()));
  }

  /** Whether this is the host the kubelet sends to Docker Hub when no key matches directly. */
  boolean isDockerHub() {
    String host = String.join(".", hostLabels);
    return port.isEmpty() && (host.equals("docker.io") || host.equals("index.docker.io"));
  }

  private static RegistryLocation of(String authority, List<String> pathSegments) {
    String host = authority;
    String port = "";
    // Split like Go's net.SplitHostPort: a bracketed IPv6 host, or exactly one colon.
    if (authority.startsWith("[") && authority.indexOf(']') > 0) {
      int close = authority.indexOf(']');
      host = authority.substring(1, close);
      String after = authority.substring(close + 1);
      port = after.startsWith(":") ? after.substring(1) : "";
    } else if (authority.indexOf(':') >= 0
        && authority.indexOf(':') == authority.lastIndexOf(':')) {
      int colon = authority.indexOf(':');
      host = authority.substring(0, colon);
      port = authority.substring(colon + 1);
    }
    String indexKey =
        pathSegments.isEmpty() ? authority : authority + "/" + String.join("/", pathSegments);
    return new RegistryLocation(indexKey, List.of(host.split("\\.", -1)), port, pathSegments);
  }

  /** A path's segments; leading and trailing slashes carry no segment ({@code /acme/} is acme). */
  private static List<String> segments(String path) {
    int start = 0;
    int end = path.length();
    while (start < end && path.charAt(start) == '/') {
      start++;
    }
    while (end > start && path.charAt(end - 1) == '/') {
      end--;
    }
    return start == end ? List.of() : List.of(path.substring(start, end).split("/", -1));
  }

  /**
   * One host label against one glob label, as Go's {@code filepath.Match} does for the kubelet:
   * {@code *} matches any run of characters within the label, {@code ?} exactly one. A glob never
   * spans a dot, because labels are compared one by one.
   */
  static final class LabelGlob {
    private LabelGlob() {}

    static boolean matches(String glob, String label) {
      // Greedy scan that backtracks only to the last star: linear in practice and never
      // exponential, whatever a key holds.
      int g = 0;
      int l = 0;
      int star = -1;
      int starLabel = 0;
      while (l < label.length()) {
        if (g < glob.length() && (glob.charAt(g) == '?' || glob.charAt(g) == label.charAt(l))) {
          g++;
          l++;
        } else if (g < glob.length() && glob.charAt(g) == '*') {
          star = g++;
          starLabel = l;
        } else if (star >= 0) {
          g = star + 1;
          l = ++starLabel;
        } else {
          return false;
        }
      }
      while (g < glob.length() && glob.charAt(g) == '*') {
        g++;
      }
      return g == glob.length();
    }
  }
}
