package io.kuik.sim.world.apply;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A server-side apply that would change fields other managers own. Its message is the API server's:
 * {@code Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.x}.
 */
public final class ApplyConflict extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** One field another manager owns with a different value. */
  public record Conflict(String manager, String apiVersion, FieldPath path) {}

  private final transient List<Conflict> conflicts;

  public ApplyConflict(List<Conflict> conflicts) {
    super(render(conflicts));
    this.conflicts = List.copyOf(conflicts);
  }

  public List<Conflict> conflicts() {
    return conflicts;
  }

  private static String render(List<Conflict> conflicts) {
    Map<String, List<Conflict>> byManager = new LinkedHashMap<>();
    for (Conflict c : conflicts) {
      byManager.computeIfAbsent(c.manager(), m -> new ArrayList<>()).add(c);
    }
    List<String> groups = new ArrayList<>();
    for (Map.Entry<String, List<Conflict>> e : byManager.entrySet()) {
      List<Conflict> list = e.getValue();
      String using = " using " + list.get(0).apiVersion();
      if (list.size() == 1) {
        groups.add("conflict with \"" + e.getKey() + "\"" + using + ": " + list.get(0).path());
      } else {
        StringBuilder g = new StringBuilder("conflicts with \"" + e.getKey() + "\"" + using + ":");
        list.forEach(c -> g.append("\n- ").append(c.path()));
        groups.add(g.toString());
      }
    }
    int n = conflicts.size();
    return "Apply failed with "
        + n
        + (n == 1 ? " conflict: " : " conflicts: ")
        + String.join("\n", groups);
  }
}
