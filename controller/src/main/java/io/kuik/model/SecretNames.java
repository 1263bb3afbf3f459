package io.kuik.model;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The names of the Secrets kuik manages (docs/behaviour.md#secret-names): {@code
 * kuik-inject-<kind>-<name>} for an injected pull secret, {@code kuik-provider-<suffix>} for a
 * provider's. The webhook and the syncer both call this class, so they always agree on a name. A
 * name derives from a resource's identity only, never from its configuration.
 *
 * <p>Every result is a valid DNS-1123 subdomain of at most {@value #MAX_LENGTH} characters. A name
 * that would be longer is cut and given {@code -} plus the first {@value #HASH_LENGTH} hex digits
 * of the SHA-256 of the full name, so two long names that share a prefix still differ, and the same
 * input always gives the same name.
 */
public final class SecretNames {

  public static final String INJECT_PREFIX = "kuik-inject-";
  public static final String PROVIDER_PREFIX = "kuik-provider-";

  /** The longest name Kubernetes accepts for a Secret (a DNS-1123 subdomain). */
  public static final int MAX_LENGTH = 253;

  static final int HASH_LENGTH = 10;

  private static final Pattern KIND = Pattern.compile("[A-Za-z][A-Za-z0-9]*");

  private SecretNames() {}

  /**
   * The injected pull secret of a routing resource: {@code injected("ImageMirror", "prod-mirror")}
   * is {@code kuik-inject-imagemirror-prod-mirror}.
   *
   * @param kind the resource's kind, e.g. {@code ImageMirror}; lower-cased in the name
   * @param name the resource's name, a DNS-1123 subdomain
   * @throws IllegalArgumentException when kind is not a Kind or name not a resource name
   */
  public static String injected(String kind, String name) {
    if (!KIND.matcher(kind).matches()) {
      throw new IllegalArgumentException("not a resource kind: \"" + kind + "\"");
    }
    if (!Dns1123.isSubdomain(name)) {
      throw new IllegalArgumentException("not a resource name: \"" + name + "\"");
    }
    return bounded(INJECT_PREFIX + kind.toLowerCase(Locale.ROOT) + "-" + name);
  }

  /**
   * A provider's Secret in the install namespace: {@code kuik-provider-<suffix>}.
   *
   * @throws IllegalArgumentException when the name, before any shortening, is not a DNS-1123
   *     subdomain (ignoring its length)
   */
  public static String provider(String suffix) {
    String full = PROVIDER_PREFIX + suffix;
    if (suffix.isEmpty() || !Dns1123.hasSubdomainShape(full)) {
      throw new IllegalArgumentException("not a valid provider Secret suffix: \"" + suffix + "\"");
    }
    return bounded(full);
  }

  /** {@code full}, or when too long its cut plus the hash of all of it; full must be valid. */
  private static String bounded(String full) {
    if (full.length() <= MAX_LENGTH) {
      return full;
    }
    int end = MAX_LENGTH - 1 - HASH_LENGTH;
    // A cut that ended on '-' or '.' would leave "-" or ".-" before the hash: back off to the last
    // alphanumeric, which always exists since the prefix starts with "kuik".
    while (full.charAt(end - 1) == '-' || full.charAt(end - 1) == '.') {
      end--;
    }
    return full.substring(0, end) + "-" + sha256Hex(full).substring(0, HASH_LENGTH);
  }

  private static String sha256Hex(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      // Every Java platform must provide SHA-256.
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
