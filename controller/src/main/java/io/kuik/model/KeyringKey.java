package io.kuik.model;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * An {@code auths} key as the kubelet's keyring reads and matches it (kubernetes/kubernetes {@code
 * pkg/credentialprovider/keyring.go}: {@code BasicDockerKeyring.Add}, {@code URLsMatch}, {@code
 * ParseSchemelessURL}, {@code SplitURL}; URLs read by the rules of Go's {@code net/url.Parse}).
 *
 * <p>{@code filed} is the string the kubelet files the key under: the key read as a URL ({@code
 * https://} put in front unless it has {@code http://} or {@code https://}), its host, then its
 * decoded path without a leading {@code /v1} or {@code /v2} before a {@code /}, the path left out
 * when that leaves nothing or {@code /}. The kubelet tries keys in reverse byte order of this
 * string ({@link #compareTo}), which puts a longer path before its prefix and {@code a.example.com}
 * before {@code *.example.com}.
 */
record KeyringKey(String filed) implements Comparable<KeyringKey> {

  /** What {@code https://index.docker.io/v1/} is filed under: Docker Hub's legacy key. */
  static final String DOCKER_HUB_LEGACY = "index.docker.io";

  /**
   * The key as the kubelet files it; empty when Go's URL parser refuses it (the kubelet drops it).
   */
  static Optional<KeyringKey> of(String authsKey) {
    String url =
        authsKey.startsWith("https://") || authsKey.startsWith("http://")
            ? authsKey
            : "https://" + authsKey;
    return Url.parse(url)
        .map(
            u -> {
              String path = u.path;
              if (path.startsWith("/v1/") || path.startsWith("/v2/")) {
                path = path.substring("/v1".length());
              }
              return new KeyringKey(path.isEmpty() || path.equals("/") ? u.host : u.host + path);
            });
  }

  /**
   * Whether the kubelet matches this key to {@code image} ({@code URLsMatchStr}): both read again
   * as URLs; equal ports (a missing port is its own value); as many dot-separated host labels, each
   * image label matched by this key's label as a Go {@code filepath.Match} pattern ({@link
   * HostLabelGlob}); and this key's path a string prefix of the image's, so {@code quay.io/acme}
   * serves {@code quay.io/acme-corp/app}.
   */
  boolean serves(String image) {
    Optional<Parts> key = matcher();
    Optional<Parts> target = Parts.of(image);
    return key.isPresent() && target.isPresent() && key.get().serves(target.get());
  }

  /** This key's URL parts, read once, to match many images; empty when they do not parse. */
  Optional<Parts> matcher() {
    return Parts.of(filed);
  }

  /**
   * A key or an image read once as the kubelet reads it ({@code https://} in front): its path, its
   * port, and its host's labels (a key's are globs).
   */
  static final class Parts {
    private final String path;
    private final String port;
    private final String[] labels;

    private Parts(String path, String port, String[] labels) {
      this.path = path;
      this.port = port;
      this.labels = labels;
    }

    static Optional<Parts> of(String hostAndPath) {
      return Url.parse("https://" + hostAndPath)
          .map(
              url -> {
                HostAndPort host = HostAndPort.split(url.host);
                return new Parts(url.path, host.port, host.name.split("\\.", -1));
              });
    }

    /** The host name, without the port. */
    String host() {
      return String.join(".", labels);
    }

    /**
     * The one host name this key matches, when no label has a glob character: a pattern without one
     * matches its own text only. Null for a glob.
     */
    String exactHost() {
      for (String glob : labels) {
        if (glob.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '\\')) {
          return null;
        }
      }
      return host();
    }

    /**
     * {@link KeyringKey#serves}: whether these parts, a key's, serve {@code target}, an image's.
     */
    boolean serves(Parts target) {
      if (!target.path.startsWith(path) || !port.equals(target.port)) {
        return false;
      }
      if (labels.length != target.labels.length) {
        return false;
      }
      for (int i = 0; i < labels.length; i++) {
        if (!HostLabelGlob.matches(labels[i], target.labels[i])) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Whether the kubelet gives {@code image} the {@link #DOCKER_HUB_LEGACY} credential when no key
   * matches ({@code isDefaultRegistryMatch}): its first component is {@code docker.io}, {@code
   * index.docker.io}, or has neither {@code .} nor {@code :} (which includes {@code localhost}).
   */
  static boolean goesToDockerHub(String image) {
    String first = image.split("/", 2)[0];
    return !first.isEmpty()
        && (!image.contains("/")
            || first.equals("docker.io")
            || first.equals("index.docker.io")
            || (!first.contains(".") && !first.contains(":")));
  }

  /** Go's string order: by UTF-8 bytes, unsigned. */
  @Override
  public int compareTo(KeyringKey other) {
    return Arrays.compareUnsigned(
        filed.getBytes(StandardCharsets.UTF_8), other.filed.getBytes(StandardCharsets.UTF_8));
  }

  /** Host and decoded path of an {@code http(s)://} URL, by the rules of Go's url.Parse. */
  private static final class Url {
    final String host;
    final String path;

    private Url(String host, String path) {
      this.host = host;
      this.path = path;
    }

    static Optional<Url> parse(String url) {
      int hash = url.indexOf('#');
      String main = hash < 0 ? url : url.substring(0, hash);
      if (hash >= 0 && decode(url.substring(hash + 1)) == null) {
        return Optional.empty();
      }
      if (main.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
        return Optional.empty();
      }
      // Scheme and "//" off; a query ends the URL for our purpose.
      String rest = main.substring(main.indexOf("://") + 3);
      int query = rest.indexOf('?');
      if (query >= 0) {
        rest = rest.substring(0, query);
      }
      int slash = rest.indexOf('/');
      String authority = slash < 0 ? rest : rest.substring(0, slash);
      String rawPath = slash < 0 ? "" : rest.substring(slash);
      int at = authority.lastIndexOf('@');
      if (at >= 0) {
        String userInfo = authority.substring(0, at);
        boolean valid =
            userInfo
                .chars()
                .allMatch(c -> isAsciiAlphanumeric(c) || "-._:~!$&'()*+,;=%@".indexOf(c) >= 0);
        if (!valid || decode(userInfo) == null) {
          return Optional.empty();
        }
        authority = authority.substring(at + 1);
      }
      String host = host(authority);
      String path = decode(rawPath);
      return host == null || path == null ? Optional.empty() : Optional.of(new Url(host, path));
    }

    /** Go's parseHost: a valid optional port, host characters only, escapes of non-ASCII only. */
    private static String host(String authority) {
      int portFrom;
      if (authority.startsWith("[")) {
        portFrom = authority.lastIndexOf(']') + 1;
        if (portFrom == 0) {
          return null;
        }
      } else {
        int colon = authority.lastIndexOf(':');
        portFrom = colon < 0 ? authority.length() : colon;
      }
      String port = authority.substring(portFrom);
      if (!port.isEmpty() && !port.matches(":[0-9]*")) {
        return null;
      }
      int i = 0;
      while (i < authority.length()) {
        char c = authority.charAt(i);
        if (c == '%') {
          boolean nonAscii =
              i + 2 < authority.length()
                  && hexValue(authority.charAt(i + 2)) >= 0
                  && (hexValue(authority.charAt(i + 1)) >= 8 || authority.startsWith("%25", i));
          if (!nonAscii) {
            return null;
          }
          i += 3;
          continue;
        }
        if (c < 0x80 && !isAsciiAlphanumeric(c) && "-._~!$&'()*+,;=:[]<>\"".indexOf(c) < 0) {
          return null;
        }
        i++;
      }
      return decode(authority);
    }

    /** Percent escapes decoded as UTF-8; null for a {@code %} without two hex digits. */
    private static String decode(String s) {
      if (s.indexOf('%') < 0) {
        return s;
      }
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      ByteArrayOutputStream out = new ByteArrayOutputStream(utf8.length);
      for (int i = 0; i < utf8.length; i++) {
        if (utf8[i] != '%') {
          out.write(utf8[i]);
        } else if (i + 2 < utf8.length
            && hexValue(utf8[i + 1]) >= 0
            && hexValue(utf8[i + 2]) >= 0) {
          out.write(hexValue(utf8[i + 1]) << 4 | hexValue(utf8[i + 2]));
          i += 2;
        } else {
          return null;
        }
      }
      return out.toString(StandardCharsets.UTF_8);
    }

    private static boolean isAsciiAlphanumeric(int c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    private static int hexValue(int c) {
      if (c >= '0' && c <= '9') {
        return c - '0';
      }
      if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
      }
      if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
      }
      return -1;
    }
  }

  /**
   * Go's {@code net.SplitHostPort}, falling back as {@code SplitURL} does to the whole host and no
   * port when it refuses: no colon, a colon too many, or a bracket out of place (so {@code
   * reg[0-9].example.com:5000} has no port and a last label {@code com:5000}).
   */
  private record HostAndPort(String name, String port) {
    static HostAndPort split(String host) {
      HostAndPort whole = new HostAndPort(host, "");
      int colon = host.lastIndexOf(':');
      if (colon < 0) {
        return whole;
      }
      String name = host.substring(0, colon);
      int bracketsFrom = 0;
      int closingFrom = 0;
      if (host.charAt(0) == '[') {
        if (host.indexOf(']') != colon - 1) {
          return whole;
        }
        name = host.substring(1, colon - 1);
        bracketsFrom = 1;
        closingFrom = colon;
      } else if (name.contains(":")) {
        return whole;
      }
      if (host.indexOf('[', bracketsFrom) >= 0 || host.indexOf(']', closingFrom) >= 0) {
        return whole;
      }
      return new HostAndPort(name, host.substring(colon + 1));
    }
  }
}
