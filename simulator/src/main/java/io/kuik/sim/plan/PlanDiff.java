package io.kuik.sim.plan;

import io.kuik.sim.plan.PlanReport.Candidate;
import io.kuik.sim.plan.PlanReport.InjectedSecret;
import io.kuik.sim.plan.PlanReport.Key;
import io.kuik.sim.plan.PlanReport.PlannedContainer;
import io.kuik.sim.plan.PlanReport.PlannedPod;
import io.kuik.sim.plan.PlanReport.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What changes between two plans ({@code kuik plan --diff BEFORE}): each plan flattened to facts
 * keyed by where and what (a Secret's key and its source, a container's candidates and the image it
 * runs, a pod's phase and added references, a problem), and the facts compared. Pods are keyed by
 * the manifest they came from, so a renamed pod of one Deployment is the same pod.
 */
final class PlanDiff {

  /** One fact that appeared ({@code added}), went away ({@code removed}) or changed value. */
  record Change(String change, String where, String what, String before, String after) {}

  private PlanDiff() {}

  static List<Change> between(PlanReport before, PlanReport after) {
    Map<String, String> old = facts(before);
    Map<String, String> now = facts(after);
    TreeSet<String> keys = new TreeSet<>(old.keySet());
    keys.addAll(now.keySet());
    List<Change> changes = new ArrayList<>();
    for (String key : keys) {
      String was = old.get(key);
      String is = now.get(key);
      if (Objects.equals(was, is)) {
        continue;
      }
      String[] whereAndWhat = key.split("\u0000", 2);
      String change = was == null ? "added" : is == null ? "removed" : "changed";
      changes.add(new Change(change, whereAndWhat[0], whereAndWhat[1], was, is));
    }
    return changes;
  }

  private static Map<String, String> facts(PlanReport report) {
    Map<String, String> facts = new TreeMap<>();
    for (InjectedSecret secret : report.secrets()) {
      String where = "Secret " + secret.namespace() + "/" + secret.name();
      put(facts, where, "owner", secret.resource());
      for (Key key : secret.keys()) {
        put(facts, where, "key " + key.key(), key.from());
      }
    }
    for (PlannedPod pod : report.pods()) {
      put(facts, pod.source(), "phase", pod.phase());
      put(facts, pod.source(), "pull secrets added", String.join(", ", pod.addedPullSecrets()));
      for (PlannedContainer container : pod.containers()) {
        String where = pod.source() + " container " + container.name();
        put(facts, where, "runs", container.runs());
        put(
            facts,
            where,
            "candidates",
            container.candidates().stream()
                .map(Candidate::image)
                .collect(Collectors.joining(", ")));
      }
    }
    for (Problem problem : report.problems()) {
      facts.merge(
          problem.object() + "\u0000problem " + problem.reason(),
          problem.message(),
          (a, b) -> a + " | " + b);
    }
    return facts;
  }

  private static void put(Map<String, String> facts, String where, String what, String value) {
    facts.put(where + "\u0000" + what, value);
  }
}
