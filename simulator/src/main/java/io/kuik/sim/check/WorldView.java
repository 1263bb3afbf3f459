package io.kuik.sim.check;

import io.kuik.sim.trace.Target;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an administrator sees of the world at one instant, read from the API server's stored objects
 * (reads that are not requests and leave no trace), decoded by the checker's own small parsers
 * rather than the production model classes, so that a bug there cannot hide itself. Credentials are
 * kept as {@code user:password} text for comparison only; no message ever shows them.
 */
public record WorldView(
    Instant now,
    Map<String, NamespaceView> namespaces,
    Map<String, ResourceView> resources,
    List<PodView> pods,
    Map<Target, InjectSecret> injectSecrets,
    Map<String, Map<String, String>> sources) {

  /** The Secret name prefix of an ImageAlternative's injected Secrets. */
  public static final String INJECT_PREFIX = "kuik-inject-imagealternative-";

  public record NamespaceView(String name, Map<String, String> labels, boolean terminating) {}

  /**
   * A routing resource's rewrite policy; unset means OnFailure. {@link #OTHER} is a value the CRD's
   * schema refuses, which needs nothing.
   */
  public enum Policy {
    ALWAYS,
    ON_FAILURE,
    OTHER;

    static Policy of(String text) {
      if (text == null || text.equals("OnFailure")) {
        return ON_FAILURE;
      }
      return text.equals("Always") ? ALWAYS : OTHER;
    }
  }

  /**
   * One alternative: its repository (the auths key it injects), and the source Secret's name or the
   * provider that mints its credential (null when it has none).
   */
  public record EntryView(String repository, String secretRef, String provider) {
    public EntryView(String repository, String secretRef) {
      this(repository, secretRef, null);
    }
  }

  public record ResourceView(
      String name, Policy rewritePolicy, LabelSelector namespaceSelector, List<EntryView> entries) {

    public String secretName() {
      return INJECT_PREFIX + name;
    }

    /** The entry an image falls under: its repository followed by a tag or digest. */
    public Optional<EntryView> entryServing(String image) {
      for (EntryView entry : entries) {
        String repo = entry.repository();
        if (image.startsWith(repo + ":") || image.startsWith(repo + "@")) {
          return Optional.of(entry);
        }
      }
      return Optional.empty();
    }
  }

  /**
   * A pod and the ImageAlternative that rewrote its container (null if none); live when neither
   * Succeeded nor Failed.
   */
  public record PodView(
      String namespace, String name, String rewriter, String image, boolean live) {}

  /** A {@code kuik-inject-*} Secret and its auths: key to credential text. */
  public record InjectSecret(String namespace, String name, Map<String, String> auths) {
    public Target target() {
      return Target.secret(namespace, name);
    }
  }

  /** In the order of their trace targets' text, as the timeline sorts them. */
  private static final java.util.Comparator<Target> INJECT_ORDER =
      java.util.Comparator.comparing(Target::toString);

  public static WorldView read(ClusterState state, String installNamespace, Instant now) {
    return read(state, installNamespace, java.util.Set.of(), now);
  }

  /**
   * The world as the checkers judge it. The namespaces kuik never serves are left out of {@link
   * #namespaces} (docs/behaviour.md#namespaces-kuik-serves: kube-system, the install namespace and
   * the chart's {@code webhook.excludedNamespaces}, {@code excluded} here): nothing is needed
   * there, and a Secret found there is one nothing needs.
   */
  public static WorldView read(
      ClusterState state, String installNamespace, java.util.Set<String> excluded, Instant now) {
    Map<String, NamespaceView> namespaces = new TreeMap<>();
    for (ObjectNode ns : state.list(ResourceType.NAMESPACE, null)) {
      String name = Meta.name(ns);
      if (name.equals("kube-system") || name.equals(installNamespace) || excluded.contains(name)) {
        continue;
      }
      namespaces.put(
          Meta.name(ns), new NamespaceView(Meta.name(ns), Meta.labels(ns), Meta.deleting(ns)));
    }
    Map<String, ResourceView> resources = new TreeMap<>();
    for (ObjectNode r : state.list(ResourceType.IMAGE_ALTERNATIVE, null)) {
      JsonNode spec = r.path("spec");
      List<EntryView> entries = new ArrayList<>();
      for (JsonNode alt : spec.path("alternatives")) {
        String ref = alt.path("auth").path("secretRef").path("name").asString(null);
        String provider = alt.path("auth").path("provider").asString(null);
        entries.add(new EntryView(alt.path("repository").asString(""), ref, provider));
      }
      JsonNode selector = spec.get("namespaceSelector");
      resources.put(
          Meta.name(r),
          new ResourceView(
              Meta.name(r),
              Policy.of(spec.path("rewritePolicy").asString(null)),
              LabelSelector.of(selector),
              entries));
    }
    List<PodView> pods = new ArrayList<>();
    for (ObjectNode pod : state.list(ResourceType.POD, null)) {
      String rewriter = null;
      String rewrittenBy = Meta.annotations(pod).get("kuik.enix.io/rewritten-by");
      if (rewrittenBy != null) {
        String by = Json.parse(rewrittenBy).path("app").asString("");
        if (by.startsWith("ImageAlternative/")) {
          rewriter = by.substring("ImageAlternative/".length());
        }
      }
      String phase = Json.text(pod, "status", "phase");
      boolean live = !"Succeeded".equals(phase) && !"Failed".equals(phase);
      String image = pod.path("spec").path("containers").path(0).path("image").asString("");
      pods.add(new PodView(Meta.namespace(pod), Meta.name(pod), rewriter, image, live));
    }
    Map<Target, InjectSecret> inject = new TreeMap<>(INJECT_ORDER);
    Map<String, Map<String, String>> sources = new TreeMap<>();
    for (ObjectNode secret : state.list(ResourceType.SECRET, null)) {
      String ns = Meta.namespace(secret);
      String name = Meta.name(secret);
      boolean dockerConfig = "kubernetes.io/dockerconfigjson".equals(Json.text(secret, "type"));
      if (name.startsWith("kuik-inject-")) {
        InjectSecret s = new InjectSecret(ns, name, auths(secret));
        inject.put(s.target(), s);
      } else if (ns.equals(installNamespace) && dockerConfig) {
        sources.put(name, auths(secret));
      }
    }
    return new WorldView(now, namespaces, resources, pods, inject, sources);
  }

  /** The auths of a Secret's .dockerconfigjson; empty when missing or unreadable. */
  static Map<String, String> auths(ObjectNode secret) {
    Map<String, String> out = new TreeMap<>();
    String encoded = Json.text(secret, "data", ".dockerconfigjson");
    if (encoded == null) {
      return out;
    }
    JsonNode config;
    try {
      config = Json.parse(new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8));
    } catch (RuntimeException unreadable) {
      return out;
    }
    for (Map.Entry<String, JsonNode> e : config.path("auths").properties()) {
      JsonNode c = e.getValue();
      String user = c.path("username").asString(null);
      String password = c.path("password").asString(null);
      if (user == null && c.hasNonNull("auth")) {
        String decoded =
            new String(
                Base64.getDecoder().decode(c.path("auth").asString()), StandardCharsets.UTF_8);
        out.put(e.getKey(), decoded);
      } else {
        out.put(e.getKey(), user + ":" + password);
      }
    }
    return out;
  }
}
