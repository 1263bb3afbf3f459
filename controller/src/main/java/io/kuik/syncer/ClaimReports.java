package io.kuik.syncer;

import io.kuik.model.RewrittenPod;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reports each pod whose claim of a rewrite counts for nothing ({@link Claims}), once per pod: a
 * {@value #REASON} Warning Event on the pod, and the counter of its first reason. A pod is known by
 * its uid for as long as it exists, so a recreated pod of the same name is reported again.
 *
 * <p>Anyone who may create pods may forge claims by the thousand, and each Event is a write: Events
 * therefore come out of a budget of their own ({@value #EVENT_BURST} at once, then one every
 * {@value #SECONDS_PER_EVENT} seconds), on top of the write token each pays. A pod reported past
 * that budget is still counted, and a log line says once that Events are being left out.
 */
final class ClaimReports {

  static final String REASON = "RewriteNotRecognized";
  static final int EVENT_BURST = 20;
  static final int SECONDS_PER_EVENT = 5;

  private static final System.Logger LOG = System.getLogger(ClaimReports.class.getName());

  private final SyncerCounters counters;
  private final WriteBudget budget;
  private final Set<String> reported = new HashSet<>();
  private boolean leavingOut;

  ClaimReports(SyncerCounters counters) {
    this.counters = counters;
    this.budget = new WriteBudget(1.0 / SECONDS_PER_EVENT, EVENT_BURST);
  }

  /** Reports the pods of {@code claims} not reported yet, one Event each listing its claims. */
  void report(List<Claims.NotRecognized> claims, Instant now, Effects out) {
    Map<String, List<Claims.NotRecognized>> byPod = new LinkedHashMap<>();
    for (Claims.NotRecognized claim : claims) {
      byPod.computeIfAbsent(key(claim.pod()), k -> new ArrayList<>()).add(claim);
    }
    byPod.forEach(
        (key, ofPod) -> {
          if (!reported.add(key)) {
            return;
          }
          counters.claimNotRecognized(ofPod.get(0).why());
          RewrittenPod pod = ofPod.get(0).pod();
          if (!budget.hasToken(now)) {
            if (!leavingOut) {
              leavingOut = true;
              LOG.log(
                  Level.WARNING,
                  "pods claim rewrites kuik does not recognize faster than one Event every {0} s:"
                      + " {1} Events are left out for a while (kuik_syncer_rewrites_not_recognized"
                      + " counts every pod); the last one: {2}/{3}",
                  SECONDS_PER_EVENT,
                  REASON,
                  pod.namespace(),
                  pod.name());
            }
            return;
          }
          budget.take(now);
          leavingOut = false;
          out.add(
              Effect.RecordEvent.onPod(
                  pod.namespace(),
                  pod.name(),
                  pod.uid(),
                  Effect.RecordEvent.Type.Warning,
                  REASON,
                  message(ofPod)));
        });
  }

  /** The pod is gone: a pod of the same uid cannot come back, but its entry must not stay. */
  void forget(RewrittenPod pod) {
    reported.remove(key(pod));
  }

  static String message(List<Claims.NotRecognized> claims) {
    return claims.stream().map(Claims.NotRecognized::describe).collect(Collectors.joining("; "))
        + ". The claim draws no credential: kuik writes a pull secret only where its webhook could"
        + " have made the rewrite";
  }

  private static String key(RewrittenPod pod) {
    return pod.uid() != null ? pod.uid() : pod.namespace() + "/" + pod.name();
  }
}
