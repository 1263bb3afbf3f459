package io.kuik.syncer;

import io.kuik.model.ResourceId;
import io.kuik.ports.EventRecorder;
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

  private final EventRecorder events;
  private final Map<ResourceId, Set<String>> reported = new HashMap<>();

  ProblemReports(EventRecorder events) {
    this.events = events;
  }

  /**
   * Reports the messages of {@code reason} in {@code scope} (a namespace, or "" for the whole
   * resource) not reported last time, and remembers the current set, so a problem that goes away
   * and comes back is reported again.
   */
  void report(ResourceId resource, String uid, String reason, String scope, Set<String> messages) {
    Set<String> before = reported.computeIfAbsent(resource, r -> new LinkedHashSet<>());
    String prefix = reason + "|" + scope + ":";
    Set<String> now = new LinkedHashSet<>();
    for (String message : messages) {
      now.add(prefix + message);
      if (!before.contains(prefix + message)) {
        events.record(resource, uid, EventRecorder.Type.Warning, reason, message);
      }
    }
    before.removeIf(key -> key.startsWith(prefix) && !now.contains(key));
    before.addAll(now);
  }

  void forget(ResourceId resource) {
    reported.remove(resource);
  }
}
