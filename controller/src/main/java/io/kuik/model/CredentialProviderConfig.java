package io.kuik.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The kubelet's {@code CredentialProviderConfig} ({@code kubelet.config.k8s.io/v1}), read from YAML
 * or JSON and checked by the kubelet's own rules (kubernetes/kubernetes {@code
 * pkg/credentialprovider/plugin/config.go}, {@code validateCredentialProviderConfig}): at least one
 * provider; each with a name that holds no {@code /} or space and is neither {@code .} nor {@code
 * ..}, unique; at least one {@code matchImages} entry, each one a key the kubelet can read; a
 * {@code defaultCacheDuration}, zero or more; and an {@code apiVersion}. The kubelet decodes it
 * strictly, so an unknown field is an error here too.
 *
 * <p>What kuik adds: an empty {@code providers} list is no provider at all (the kubelet refuses it;
 * the chart renders one when its {@code providers} value is empty); only {@code
 * credentialprovider.kubelet.k8s.io/v1} is spoken, and {@code tokenAttributes} is refused (it hands
 * the plugin the token of the pod being pulled for; kuik mints with its own identity, for no pod).
 * A provider's name must also make a Secret name ({@link SecretNames#provider}).
 */
public final class CredentialProviderConfig {

  public static final String API_VERSION = "kubelet.config.k8s.io/v1";
  public static final String KIND = "CredentialProviderConfig";

  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private static final Set<String> TOP = Set.of("apiVersion", "kind", "providers");
  private static final Set<String> PROVIDER =
      Set.of("name", "matchImages", "defaultCacheDuration", "apiVersion", "args", "env");

  private CredentialProviderConfig() {}

  /**
   * The providers of {@code text}, by name, in order.
   *
   * @param source names the text in the message, e.g. the file's path
   * @throws IllegalArgumentException with every problem found, each at its field
   */
  public static Map<String, CredentialProvider> parse(String text, String source) {
    JsonNode root;
    try {
      root = YAML.readTree(text);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          source + " is not YAML or JSON: " + e.getOriginalMessage());
    }
    List<String> problems = new ArrayList<>();
    Map<String, CredentialProvider> providers = new LinkedHashMap<>();
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(source + ": expected a " + KIND + " object");
    }
    unknown(root, TOP, "", problems);
    if (!API_VERSION.equals(text(root, "apiVersion"))) {
      problems.add("apiVersion: must be " + API_VERSION);
    }
    if (!KIND.equals(text(root, "kind"))) {
      problems.add("kind: must be " + KIND);
    }
    JsonNode list = root.path("providers");
    if (!list.isArray()) {
      problems.add("providers: a list is required");
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; list.isArray() && i < list.size(); i++) {
      String at = "providers[" + i + "].";
      JsonNode node = list.get(i);
      if (!node.isObject()) {
        problems.add(at.substring(0, at.length() - 1) + ": not an object");
        continue;
      }
      int before = problems.size();
      if (node.has("tokenAttributes")) {
        problems.add(
            at
                + "tokenAttributes: not supported: kuik mints with its own identity, for no pod, so"
                + " there is no pod's ServiceAccount token to hand the plugin");
      } else {
        unknown(node, PROVIDER, at, problems);
      }
      String name = text(node, "name");
      checkName(name, at, names, problems);
      List<String> matchImages = strings(node, "matchImages", at, problems);
      if (matchImages.isEmpty()) {
        problems.add(at + "matchImages: at least 1 item is required");
      }
      for (String image : matchImages) {
        if (KeyringKey.of(image).flatMap(KeyringKey::matcher).isEmpty()) {
          problems.add(at + "matchImages: \"" + image + "\" is not a registry pattern");
        }
      }
      Duration cache = duration(node, at, problems);
      String apiVersion = text(node, "apiVersion");
      if (apiVersion == null || apiVersion.isEmpty()) {
        problems.add(at + "apiVersion: required (" + CredentialProvider.PROTOCOL_V1 + ")");
      } else if (!CredentialProvider.PROTOCOL_V1.equals(apiVersion)) {
        problems.add(
            at
                + "apiVersion: \""
                + apiVersion
                + "\" not supported: kuik speaks "
                + CredentialProvider.PROTOCOL_V1);
      }
      List<String> args = strings(node, "args", at, problems);
      List<CredentialProvider.EnvVar> env = env(node, at, problems);
      if (problems.size() == before) {
        providers.put(
            name, new CredentialProvider(name, matchImages, cache, apiVersion, args, env));
      }
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(source + ": " + String.join("; ", problems));
    }
    return providers;
  }

  private static void checkName(String name, String at, Set<String> names, List<String> problems) {
    if (name == null || name.isEmpty()) {
      problems.add(at + "name: required");
      return;
    }
    if (name.contains("/") || name.contains(" ") || name.equals(".") || name.equals("..")) {
      problems.add(at + "name: \"" + name + "\" may not hold '/' or a space, nor be '.' or '..'");
    } else if (!Dns1123.isSubdomain(name)) {
      problems.add(
          at
              + "name: \""
              + name
              + "\" must be lower-case letters, digits, '-' and '.' (it names"
              + " the provider's kuik-provider-* Secrets)");
    }
    if (!names.add(name)) {
      problems.add(at + "name: \"" + name + "\" is listed twice");
    }
  }

  private static Duration duration(JsonNode node, String at, List<String> problems) {
    String text = text(node, "defaultCacheDuration");
    if (text == null) {
      problems.add(at + "defaultCacheDuration: required, e.g. 12h");
      return Duration.ZERO;
    }
    try {
      Duration value = GoDuration.parse(text);
      if (value.isNegative()) {
        problems.add(at + "defaultCacheDuration: must be 0 or more");
      }
      return value;
    } catch (IllegalArgumentException invalid) {
      problems.add(at + "defaultCacheDuration: " + invalid.getMessage());
      return Duration.ZERO;
    }
  }

  private static List<CredentialProvider.EnvVar> env(
      JsonNode node, String at, List<String> problems) {
    List<CredentialProvider.EnvVar> env = new ArrayList<>();
    JsonNode list = node.path("env");
    if (list.isMissingNode() || list.isNull()) {
      return env;
    }
    if (!list.isArray()) {
      problems.add(at + "env: must be a list of {name, value}");
      return env;
    }
    for (int i = 0; i < list.size(); i++) {
      JsonNode item = list.get(i);
      String name = text(item, "name");
      String value = text(item, "value");
      unknown(item, Set.of("name", "value"), at + "env[" + i + "].", problems);
      if (name == null || name.isEmpty() || value == null) {
        problems.add(at + "env[" + i + "]: needs a name and a value (a string)");
      } else {
        env.add(new CredentialProvider.EnvVar(name, value));
      }
    }
    return env;
  }

  private static List<String> strings(
      JsonNode node, String field, String at, List<String> problems) {
    List<String> out = new ArrayList<>();
    JsonNode list = node.path(field);
    if (list.isMissingNode() || list.isNull()) {
      return out;
    }
    if (!list.isArray()) {
      problems.add(at + field + ": must be a list of strings");
      return out;
    }
    for (JsonNode item : list) {
      if (!item.isString()) {
        problems.add(at + field + ": must be a list of strings");
        return out;
      }
      out.add(item.asString());
    }
    return out;
  }

  private static void unknown(JsonNode node, Set<String> known, String at, List<String> problems) {
    if (!node.isObject()) {
      return;
    }
    for (String field : node.propertyNames()) {
      if (!known.contains(field)) {
        problems.add(at + field + ": unknown field");
      }
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value != null && value.isString() ? value.asString() : null;
  }
}
