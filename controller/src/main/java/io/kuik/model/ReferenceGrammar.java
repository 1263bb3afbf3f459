package io.kuik.model;

import java.util.regex.Pattern;

/**
 * The pieces of the Docker reference grammar (distribution/reference) that image references and
 * registry paths share. Every check returns {@code null} when the piece is valid, or the reason it
 * is not, worded to be read after the input it was found in.
 */
final class ReferenceGrammar {

  static final String DOCKER_HUB = "docker.io";
  static final String DOCKER_HUB_LEGACY = "index.docker.io";
  static final String OFFICIAL_NAMESPACE = "library";
  static final int NAME_MAX_LENGTH = 255;

  private static final Pattern DOMAIN_COMPONENT =
      Pattern.compile("[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]");
  private static final Pattern IPV6 = Pattern.compile("\\[[a-fA-F0-9:]+\\]");
  private static final Pattern PORT = Pattern.compile("[0-9]+");
  private static final Pattern PATH_SEGMENT =
      Pattern.compile("[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*");
  private static final Pattern TAG = Pattern.compile("[\\w][\\w.-]{0,127}");
  private static final Pattern DIGEST = Pattern.compile("sha256:[a-f0-9]{64}");
  private static final Pattern HEX64 = Pattern.compile("[a-f0-9]{64}");

  private ReferenceGrammar() {}

  /**
   * Whether the first segment of a name is a registry rather than a path segment: Docker's rule, it
   * has a {@code .} or a {@code :} or is {@code localhost}.
   */
  static boolean looksLikeRegistry(String segment) {
    return segment.contains(".") || segment.contains(":") || segment.equals("localhost");
  }

  /** {@code index.docker.io} is the legacy name of Docker Hub; both mean {@code docker.io}. */
  static String canonicalRegistry(String registry) {
    return registry.equals(DOCKER_HUB_LEGACY) ? DOCKER_HUB : registry;
  }

  static String whitespaceIn(String input) {
    for (int i = 0; i < input.length(); i++) {
      char c = input.charAt(i);
      if (Character.isWhitespace(c) || Character.isISOControl(c)) {
        return "has "
            + (c == ' ' ? "a space" : "a whitespace or control character")
            + " at position "
            + (i + 1);
      }
    }
    return null;
  }

  static String registryProblem(String registry) {
    String host = registry;
    int colon = registry.lastIndexOf(':');
    if (colon >= 0 && !registry.endsWith("]")) {
      String port = registry.substring(colon + 1);
      host = registry.substring(0, colon);
      if (!PORT.matcher(port).matches()) {
        return "registry \"" + registry + "\" has port \"" + port + "\", which must be digits";
      }
    }
    if (host.isEmpty()) {
      return "registry \"" + registry + "\" has no host name";
    }
    if (IPV6.matcher(host).matches()) {
      return null;
    }
    for (String component : host.split("\\.", -1)) {
      if (!DOMAIN_COMPONENT.matcher(component).matches()) {
        return "registry host \""
            + host
            + "\" must be DNS labels of letters, digits and '-' separated by '.'";
      }
    }
    return null;
  }

  /** Checks the segments of a repository path; an empty path is the caller's to refuse or not. */
  static String pathProblem(String path) {
    if (path.isEmpty()) {
      return null;
    }
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty()) {
        return "has an empty path segment (a '/' at the start or end, or '//')";
      }
      if (!segment.equals(segment.toLowerCase(java.util.Locale.ROOT))) {
        return "path segment \"" + segment + "\" must be lower-case";
      }
      if (!PATH_SEGMENT.matcher(segment).matches()) {
        return "path segment \""
            + segment
            + "\" must be lower-case letters and digits, separated by '.', '_', '__' or '-'";
      }
    }
    return null;
  }

  static String tagProblem(String tag) {
    if (TAG.matcher(tag).matches()) {
      return null;
    }
    return "tag \""
        + tag
        + "\" must be 1 to 128 letters, digits, '_', '.' or '-', and not start with '.' or '-'";
  }

  static String digestProblem(String digest) {
    if (DIGEST.matcher(digest).matches()) {
      return null;
    }
    return "digest \"" + digest + "\" must be \"sha256:\" followed by 64 lower-case hex digits";
  }

  /** Docker refuses a bare 64-hex name: it would read as an image ID. */
  static boolean isBareImageId(String name) {
    return HEX64.matcher(name).matches();
  }
}
