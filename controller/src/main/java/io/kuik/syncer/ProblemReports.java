package io.kuik.syncer;

import io.kuik.model.ResourceId;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Records a Warning event for a resource's problem once, when it appears, not on every reconcile:
 * one missing source Secret must not cost one Event per namespace and resync.
 */
final class ProblemReports {

  static final String INJECTION_FAILED = "PullSecretInjectionFailed";
  static final String INVALID_RESOURCE = "InvalidRoutingResource";
  static final String SECRET_TOO_LARGE = "PullSecretTooLarge";
  static final String WRITE_REFUSED = "PullSecretWriteRefused";

  /**
   * The messages of one reason in one scope now: a namespace, or "" for the whole resource. An
   * empty set says the problem is gone.
   */
  record Problem(String reason, String scope, Set<String> messages) {
    Problem {
      messages = Collections.unmodifiableSet(new LinkedHashSet<>(messages)); // in order
    }
  }

  private final Map<ResourceId, Set<String>> reported = new HashMap<>();

  /**
   * Records the messages of {@code problem} not reported last time, as Events on {@code resource},
   * and remembers the current set, so a problem that goes away and comes back is reported again.
   */
  void report(ResourceId resource, String uid, Problem problem, Effects out) {
    Set<String> before = reported.computeIfAbsent(resource, r -> new LinkedHashSet<>());
    String prefix = problem.reason() + "|" + problem.scope() + ":";
    Set<String> now = new LinkedHashSet<>();
    for (String message : problem.messages()) {
      now.add(prefix + message);
      if (!before.contains(prefix + message)) {
        out.add(
            Effect.RecordEvent.onResource(
                resource, uid, Effect.RecordEvent.Type.Warning, problem.reason(), message));
      }
    }
    before.removeIf(key -> key.startsWith(prefix) && !now.contains(key));
    before.addAll(now);
  }

  void forget(ResourceId resource) {
    reported.remove(resource);
  }
}
