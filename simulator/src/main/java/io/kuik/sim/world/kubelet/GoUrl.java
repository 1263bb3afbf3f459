package io.kuik.sim.world.kubelet;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The host and path Go's {@code net/url.Parse} gives for an {@code http(s)://} URL, the parts the
 * kubelet's keyring reads (kubernetes/kubernetes {@code pkg/credentialprovider/keyring.go}: {@code
 * BasicDockerKeyring.Add} parses each key, {@code ParseSchemelessURL} each key and image again with
 * {@code https://} in front). Written from the rules of Go's {@code net/url} documentation and RFC
 * 3986 as Go applies them:
 *
 * <ul>
 *   <li>a control character anywhere before {@code #} refuses the URL; a fragment ({@code #...})
 *       and a query ({@code ?...}) are cut off first, so a {@code ?} never reaches the host;
 *   <li>the authority runs to the first {@code /}; a user info before its last {@code @} is dropped
 *       (it must hold only user-info characters);
 *   <li>a port after the last {@code :} must be digits (or empty); a host starting with {@code [}
 *       needs its {@code ]};
 *   <li>a host may hold letters, digits and {@code -._~!$&'()*+,;=:[]<>"} and percent escapes of
 *       non-ASCII bytes only, so {@code ^}, {@code \}, a space or {@code %41} refuse the URL;
 *   <li>host and path come back with their percent escapes decoded; a {@code %} not followed by two
 *       hex digits refuses the URL.
 * </ul>
 *
 * @param host {@code host[:port]} as Go's {@code URL.Host} holds it
 * @param path the decoded path, empty or starting with {@code /}
 */
record GoUrl(String host, String path) {

  /** Parses {@code url}, which starts with {@code http://} or {@code https://}. */
  static Optional<GoUrl> parse(String url) {
    int schemeEnd = url.indexOf("://");
    if (schemeEnd < 0) {
      throw new IllegalArgumentException("expected a scheme: " + url);
    }
    int hash = url.indexOf('#');
    String beforeFragment = hash < 0 ? url : url.substring(0, hash);
    if (hash >= 0 && unescape(url.substring(hash + 1)) == null) {
      return Optional.empty();
    }
    for (int i = 0; i < beforeFragment.length(); i++) {
      char c = beforeFragment.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return Optional.empty();
      }
    }
    String rest = beforeFragment.substring(schemeEnd + 1);
    int query = rest.indexOf('?');
    if (query >= 0) {
      rest = rest.substring(0, query);
    }
    // rest is "//authority/path"
    rest = rest.substring(2);
    int slash = rest.indexOf('/');
    String authority = slash < 0 ? rest : rest.substring(0, slash);
    String path = slash < 0 ? "" : rest.substring(slash);
    int at = authority.lastIndexOf('@');
    if (at >= 0) {
      String userInfo = authority.substring(0, at);
      if (!userInfo.chars().allMatch(GoUrl::userInfoChar) || unescape(userInfo) == null) {
        return Optional.empty();
      }
      authority = authority.substring(at + 1);
    }
    String host = host(authority);
    String decodedPath = unescape(path);
    if (host == null || decodedPath == null) {
      return Optional.empty();
    }
    return Optional.of(new GoUrl(host, decodedPath));
  }

  /** The host as Go's {@code parseHost} returns it, or null when it refuses it. */
  private static String host(String authority) {
    String portPart;
    if (authority.startsWith("[")) {
      int close = authority.lastIndexOf(']');
      if (close < 0) {
        return null;
      }
      portPart = authority.substring(close + 1);
    } else {
      int colon = authority.lastIndexOf(':');
      portPart = colon < 0 ? "" : authority.substring(colon);
    }
    if (!portPart.isEmpty() && !(portPart.charAt(0) == ':' && digits(portPart.substring(1)))) {
      return null;
    }
    for (int i = 0; i < authority.length(); i++) {
      char c = authority.charAt(i);
      if (c == '%') {
        // Only non-ASCII bytes may be escaped in a host (and %25, for IPv6 zones).
        boolean escape =
            i + 2 < authority.length()
                && hex(authority.charAt(i + 1)) >= 0
                && hex(authority.charAt(i + 2)) >= 0;
        if (!escape || (hex(authority.charAt(i + 1)) < 8 && !authority.startsWith("%25", i))) {
          return null;
        }
        i += 2;
      } else if (c < 0x80 && !hostChar(c)) {
        return null;
      }
    }
    return unescape(authority);
  }

  private static boolean digits(String s) {
    return s.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static boolean hostChar(char c) {
    return c < 0x80 && Character.isLetterOrDigit(c) || "-._~!$&'()*+,;=:[]<>\"".indexOf(c) >= 0;
  }

  private static boolean userInfoChar(int c) {
    return c < 0x80 && Character.isLetterOrDigit(c) || "-._:~!$&'()*+,;=%@".indexOf(c) >= 0;
  }

  /** Decodes percent escapes as UTF-8 bytes; null when a {@code %} lacks two hex digits. */
  private static String unescape(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%') {
        if (i + 2 >= s.length() || hex(s.charAt(i + 1)) < 0 || hex(s.charAt(i + 2)) < 0) {
          return null;
        }
        bytes.write(hex(s.charAt(i + 1)) * 16 + hex(s.charAt(i + 2)));
        i += 2;
      } else {
        byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
          encoded = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        bytes.write(encoded, 0, encoded.length);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static int hex(char c) {
    return Character.digit(c, 16) >= 0 && c < 0x80 ? Character.digit(c, 16) : -1;
  }
}
