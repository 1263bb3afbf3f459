package io.kuik.model;

import java.util.regex.Pattern;

/**
 * The Kubernetes rules for names (apimachinery's {@code IsDNS1123Label} and {@code
 * IsDNS1123Subdomain}): lower-case alphanumeric labels with {@code -} inside them, joined by {@code
 * .} in a subdomain.
 */
public final class Dns1123 {

  /** The longest label: a namespace name. */
  public static final int LABEL_MAX = 63;

  /** The longest subdomain: the name of a Secret or a routing resource. */
  public static final int SUBDOMAIN_MAX = 253;

  private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern LABEL_SHAPE = Pattern.compile(LABEL);
  private static final Pattern SUBDOMAIN_SHAPE = Pattern.compile(LABEL + "(\\." + LABEL + ")*");

  private Dns1123() {}

  /** Whether {@code value} is a DNS-1123 label: at most 63 characters. */
  public static boolean isLabel(String value) {
    return value != null && value.length() <= LABEL_MAX && LABEL_SHAPE.matcher(value).matches();
  }

  /** Whether {@code value} is a DNS-1123 subdomain: at most 253 characters. */
  public static boolean isSubdomain(String value) {
    return value != null && value.length() <= SUBDOMAIN_MAX && hasSubdomainShape(value);
  }

  /** Whether {@code value} has the shape of a DNS-1123 subdomain, whatever its length. */
  public static boolean hasSubdomainShape(String value) {
    return value != null && SUBDOMAIN_SHAPE.matcher(value).matches();
  }
}
