package io.kuik.sim.world.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * apimachinery's name and key rules, each returning the messages the API server prints (empty when
 * valid).
 */
public final class Names {

  private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String SUBDOMAIN = LABEL + "(\\." + LABEL + ")*";
  private static final Pattern DNS_LABEL = Pattern.compile(LABEL);
  private static final Pattern DNS_SUBDOMAIN = Pattern.compile(SUBDOMAIN);
  private static final Pattern CONFIG_KEY = Pattern.compile("[-._a-zA-Z0-9]+");
  private static final String QUALIFIED = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED);
  private static final Pattern LABEL_VALUE = Pattern.compile("(" + QUALIFIED + ")?");

  private Names() {}

  public static List<String> dnsSubdomain(String value) {
    List<String> out = new ArrayList<>();
    if (value.length() > 253) {
      out.add("must be no more than 253 characters");
    }
    if (!DNS_SUBDOMAIN.matcher(value).matches()) {
      out.add(
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-'"
              + " or '.', and must start and end with an alphanumeric character (e.g."
              + " 'example.com', regex used for validation is '"
              + SUBDOMAIN
              + "')");
    }
    return out;
  }

  public static List<String> dnsLabel(String value) {
    List<String> out = new ArrayList<>();
    if (value.length() > 63) {
      out.add("must be no more than 63 characters");
    }
    if (!DNS_LABEL.matcher(value).matches()) {
      out.add(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-',"
              + " and must start and end with an alphanumeric character (e.g. 'my-name',  or"
              + " '123-abc', regex used for validation is '"
              + LABEL
              + "')");
    }
    return out;
  }

  /** RBAC object names: anything that is a valid URL path segment. */
  public static List<String> pathSegment(String value) {
    if (value.equals(".") || value.equals("..")) {
      return List.of("may not be '" + value + "'");
    }
    List<String> out = new ArrayList<>();
    if (value.contains("/")) {
      out.add("may not contain '/'");
    }
    if (value.contains("%")) {
      out.add("may not contain '%'");
    }
    return out;
  }

  /** Keys of a Secret's or ConfigMap's data. */
  public static List<String> configKey(String key) {
    List<String> out = new ArrayList<>();
    if (key.length() > 253) {
      out.add("must be no more than 253 characters");
    }
    if (!CONFIG_KEY.matcher(key).matches()) {
      out.add(
          "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g."
              + " 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is"
              + " '[-._a-zA-Z0-9]+')");
    }
    if (key.equals(".")) {
      out.add("must not be '.'");
    } else if (key.equals("..")) {
      out.add("must not be '..'");
    } else if (key.startsWith("..")) {
      out.add("must not start with '..'");
    }
    return out;
  }

  /** Label and annotation keys: an optional DNS-subdomain prefix, '/', and a name part. */
  public static List<String> qualifiedName(String key) {
    List<String> out = new ArrayList<>();
    String[] parts = key.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      if (parts[0].isEmpty()) {
        out.add("prefix part must be non-empty");
      } else {
        dnsSubdomain(parts[0]).forEach(m -> out.add("prefix part " + m));
      }
      name = parts[1];
    } else {
      out.add(
          "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must"
              + " start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name', "
              + " or '123-abc', regex used for validation is '"
              + QUALIFIED
              + "') with an optional DNS subdomain prefix and '/' (e.g."
              + " 'example.com/MyName')");
      return out;
    }
    if (name.isEmpty()) {
      out.add("name part must be non-empty");
    } else if (name.length() > 63) {
      out.add("name part must be no more than 63 characters");
    }
    if (!name.isEmpty() && !QUALIFIED_NAME.matcher(name).matches()) {
      out.add(
          "name part must consist of alphanumeric characters, '-', '_' or '.', and must start"
              + " and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or"
              + " '123-abc', regex used for validation is '"
              + QUALIFIED
              + "')");
    }
    return out;
  }

  public static List<String> labelValue(String value) {
    List<String> out = new ArrayList<>();
    if (value.length() > 63) {
      out.add("must be no more than 63 characters");
    }
    if (!LABEL_VALUE.matcher(value).matches()) {
      out.add(
          "a valid label must be an empty string or consist of alphanumeric characters, '-', '_'"
              + " or '.', and must start and end with an alphanumeric character (e.g. 'MyValue', "
              + " or 'my_value',  or '12345', regex used for validation is '("
              + QUALIFIED
              + ")?')");
    }
    return out;
  }
}
