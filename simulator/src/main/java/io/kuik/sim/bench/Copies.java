package io.kuik.sim.bench;

import io.kuik.sim.world.object.Json;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What both baselines maintain: a copy of each source Secret, under the name kuik would use, in
 * every namespace the resource might need it. They cannot know which pods were rewritten, so an
 * OnFailure resource's copy goes to every namespace; an Always resource's to the namespaces its
 * selector picks.
 */
final class Copies {

  private Copies() {}

  /** The namespaces that hold a copy for resource {@code index}. */
  static List<String> targets(Workload workload, int index) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < workload.size(); i++) {
      if (!Workload.always(index) || Workload.selected(i)) {
        out.add(Workload.namespace(i));
      }
    }
    return out;
  }

  /** Whether {@code namespace} holds a copy for resource {@code index}. */
  static boolean isTarget(int index, String namespace) {
    if (!namespace.startsWith("app-")) {
      return false;
    }
    return !Workload.always(index) || Workload.selected(Integer.parseInt(namespace.substring(4)));
  }

  /**
   * The copy of {@code source} in {@code namespace} under kuik's name for resource {@code index}.
   */
  static ObjectNode copyOf(ObjectNode source, int index, String namespace) {
    ObjectNode copy = Json.object();
    copy.put("apiVersion", "v1");
    copy.put("kind", "Secret");
    ObjectNode meta = copy.putObject("metadata");
    meta.put("name", Workload.secretName(index));
    meta.put("namespace", namespace);
    copy.put("type", Json.text(source, "type"));
    copy.set("data", source.get("data").deepCopy());
    return copy;
  }

  static boolean sameData(JsonNode a, JsonNode b) {
    return a != null && b != null && a.get("data") != null && a.get("data").equals(b.get("data"));
  }

  /** The resource index of a source Secret's name, or -1. */
  static int sourceIndex(String name) {
    return name.startsWith("creds-") ? Integer.parseInt(name.substring(6)) : -1;
  }

  /** The resource index of a copy's name, or -1. */
  static int copyIndex(String name) {
    for (int k = 0; k < Workload.ALWAYS + Workload.ON_FAILURE; k++) {
      if (Workload.secretName(k).equals(name)) {
        return k;
      }
    }
    return -1;
  }
}
