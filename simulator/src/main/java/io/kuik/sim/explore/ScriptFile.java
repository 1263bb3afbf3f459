package io.kuik.sim.explore;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/**
 * A {@link Script} as a YAML file a person can read: the seed and the syncer's grace, the setup's
 * actions, and each step as its action ({@code do}, and what it acts on) and the virtual time that
 * passes after it ({@code then}, ISO-8601). A regression under {@code
 * simulator/src/test/resources/regressions/} is such a file, with comment lines on top saying what
 * it once caught.
 */
final class ScriptFile {

  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
          .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
          .build();

  private ScriptFile() {}

  /** The script as YAML, after {@code comment}'s lines as YAML comments. */
  static String write(Script script, String comment) {
    ObjectNode root = YAML.createObjectNode();
    root.put("seed", script.seed());
    root.put("syncerGraceMinutes", script.syncerGrace().toMinutes());
    var setup = root.putArray("setup");
    script.setup().forEach(action -> setup.add(node(action)));
    var steps = root.putArray("steps");
    for (Script.Step step : script.steps()) {
      ObjectNode node = node(step.action());
      node.put("then", step.advance().toString());
      steps.add(node);
    }
    StringBuilder out = new StringBuilder();
    comment.lines().forEach(line -> out.append(line.isEmpty() ? "#" : "# " + line).append('\n'));
    return out.append(YAML.writeValueAsString(root)).toString();
  }

  /**
   * The script a file holds.
   *
   * @param source names the file in error messages
   * @throws IllegalArgumentException naming the file and what is wrong with it
   */
  static Script read(String text, String source) {
    try {
      JsonNode root = YAML.readTree(text);
      List<Action> setup = new ArrayList<>();
      for (JsonNode node : required(root, "setup")) {
        setup.add(action(node));
      }
      List<Script.Step> steps = new ArrayList<>();
      for (JsonNode node : required(root, "steps")) {
        steps.add(new Script.Step(action(node), Duration.parse(text(node, "then"))));
      }
      return new Script(
          required(root, "seed").asLong(),
          Duration.ofMinutes(required(root, "syncerGraceMinutes").asLong()),
          setup,
          steps);
    } catch (JacksonException | DateTimeParseException | IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": not an explorer script: " + e.getMessage(), e);
    }
  }

  // ---- actions --------------------------------------------------------------------------------

  private static ObjectNode node(Action action) {
    ObjectNode n = YAML.createObjectNode();
    if (action instanceof Action.Skip) {
      n.put("do", "wait");
    } else if (action instanceof Action.Nothing) {
      n.put("do", "nothing");
    } else if (action instanceof Action.CreateResource a) {
      n.put("do", "create-resource").put("resource", a.name()).set("spec", spec(a.spec()));
    } else if (action instanceof Action.ChangeResource a) {
      n.put("do", "change-resource").put("resource", a.name()).set("spec", spec(a.spec()));
    } else if (action instanceof Action.DeleteResource a) {
      n.put("do", "delete-resource").put("resource", a.name());
    } else if (action instanceof Action.CreateNamespace a) {
      n.put("do", "create-namespace").put("namespace", a.name());
      if (a.tier() != null) {
        n.put("tier", a.tier());
      }
    } else if (action instanceof Action.LabelNamespace a) {
      n.put("do", "label-namespace").put("namespace", a.name()).put("tier", a.tier());
    } else if (action instanceof Action.DeleteNamespace a) {
      n.put("do", "delete-namespace").put("namespace", a.name());
    } else if (action instanceof Action.RewritePod a) {
      n.put("do", "rewrite-pod").put("namespace", a.namespace()).put("pod", a.pod());
      n.put("restartPolicy", a.restartPolicy()).put("resource", a.resource());
      n.put("image", a.image());
    } else if (action instanceof Action.DeletePod a) {
      n.put("do", "delete-pod").put("namespace", a.namespace()).put("pod", a.pod());
    } else if (action instanceof Action.ContainerExits a) {
      n.put("do", "container-exits").put("namespace", a.namespace()).put("pod", a.pod());
      n.put("exitCode", a.exitCode());
    } else if (action instanceof Action.RotateSource a) {
      n.put("do", "rotate-source").put("source", a.source()).put("rotation", a.rotation());
    } else if (action instanceof Action.PersonDeletesSecret a) {
      n.put("do", "person-deletes-secret").put("namespace", a.namespace()).put("name", a.name());
    } else if (action instanceof Action.RegistryDown a) {
      n.put("do", "registry-down").put("host", a.host());
    } else if (action instanceof Action.RegistryUp a) {
      n.put("do", "registry-up").put("host", a.host());
    } else if (action instanceof Action.SyncerCrashes) {
      n.put("do", "syncer-crashes");
    } else if (action instanceof Action.SyncerCrashesAndRestarts) {
      n.put("do", "syncer-crashes-and-restarts");
    } else if (action instanceof Action.SyncerStarts) {
      n.put("do", "syncer-starts");
    } else if (action instanceof Action.DropWatchEvents a) {
      n.put("do", "drop-watch-events").put("window", a.window().toString());
    } else if (action instanceof Action.DelayWatchEvents a) {
      n.put("do", "delay-watch-events").put("extra", a.extra().toString());
      n.put("window", a.window().toString());
    } else if (action instanceof Action.ExpireWatches) {
      n.put("do", "expire-watches");
    } else if (action instanceof Action.ApiOutage a) {
      n.put("do", "api-outage").put("window", a.window().toString());
    } else if (action instanceof Action.ProviderDown a) {
      n.put("do", "provider-down").put("window", a.window().toString());
    } else if (action instanceof Action.PolicyAway a) {
      n.put("do", "policy-away").put("binding", a.binding()).put("window", a.window().toString());
    } else {
      throw new IllegalStateException("an action the script format does not know: " + action);
    }
    return n;
  }

  private static Action action(JsonNode n) {
    String word = text(n, "do");
    return switch (word) {
      case "wait" -> new Action.Skip();
      case "nothing" -> new Action.Nothing();
      case "create-resource" -> new Action.CreateResource(text(n, "resource"), spec(n));
      case "change-resource" -> new Action.ChangeResource(text(n, "resource"), spec(n));
      case "delete-resource" -> new Action.DeleteResource(text(n, "resource"));
      case "create-namespace" ->
          new Action.CreateNamespace(text(n, "namespace"), n.path("tier").asString(null));
      case "label-namespace" -> new Action.LabelNamespace(text(n, "namespace"), text(n, "tier"));
      case "delete-namespace" -> new Action.DeleteNamespace(text(n, "namespace"));
      case "rewrite-pod" ->
          new Action.RewritePod(
              text(n, "namespace"),
              text(n, "pod"),
              text(n, "restartPolicy"),
              text(n, "resource"),
              text(n, "image"));
      case "delete-pod" -> new Action.DeletePod(text(n, "namespace"), text(n, "pod"));
      case "container-exits" ->
          new Action.ContainerExits(
              text(n, "namespace"), text(n, "pod"), required(n, "exitCode").asInt());
      case "rotate-source" ->
          new Action.RotateSource(text(n, "source"), required(n, "rotation").asInt());
      case "person-deletes-secret" ->
          new Action.PersonDeletesSecret(text(n, "namespace"), text(n, "name"));
      case "registry-down" -> new Action.RegistryDown(text(n, "host"));
      case "registry-up" -> new Action.RegistryUp(text(n, "host"));
      case "syncer-crashes" -> new Action.SyncerCrashes();
      case "syncer-crashes-and-restarts" -> new Action.SyncerCrashesAndRestarts();
      case "syncer-starts" -> new Action.SyncerStarts();
      case "drop-watch-events" -> new Action.DropWatchEvents(duration(n, "window"));
      case "delay-watch-events" ->
          new Action.DelayWatchEvents(duration(n, "extra"), duration(n, "window"));
      case "expire-watches" -> new Action.ExpireWatches();
      case "api-outage" -> new Action.ApiOutage(duration(n, "window"));
      case "provider-down" -> new Action.ProviderDown(duration(n, "window"));
      case "policy-away" ->
          new Action.PolicyAway(required(n, "binding").asBoolean(), duration(n, "window"));
      default -> throw new IllegalArgumentException("no action '" + word + "' in " + n);
    };
  }

  private static ObjectNode spec(Spec spec) {
    ObjectNode n = YAML.createObjectNode();
    n.put("rewritePolicy", spec.rewritePolicy());
    n.put("namespaceSelector", spec.selector().name());
    var alternatives = n.putArray("alternatives");
    for (Spec.Alternative a : spec.alternatives()) {
      alternatives.addObject().put("repository", a.repository()).put("secretRef", a.secretRef());
    }
    return n;
  }

  private static Spec spec(JsonNode action) {
    JsonNode n = required(action, "spec");
    List<Spec.Alternative> alternatives = new ArrayList<>();
    for (JsonNode a : required(n, "alternatives")) {
      alternatives.add(new Spec.Alternative(text(a, "repository"), text(a, "secretRef")));
    }
    return new Spec(
        text(n, "rewritePolicy"),
        Spec.Selector.valueOf(text(n, "namespaceSelector")),
        alternatives);
  }

  private static JsonNode required(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      throw new IllegalArgumentException("'" + field + "' is missing in " + node);
    }
    return value;
  }

  private static String text(JsonNode node, String field) {
    return required(node, field).asString();
  }

  private static Duration duration(JsonNode node, String field) {
    return Duration.parse(text(node, field));
  }
}
