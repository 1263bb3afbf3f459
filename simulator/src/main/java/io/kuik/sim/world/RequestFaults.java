package io.kuik.sim.world;

import io.kuik.sim.world.api.RequestAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Faults of the API server itself, checked before anything else. Fault model: a request can be
 * throttled (429 TooManyRequests, priority and fairness) or find the server unavailable (503), for
 * the next few requests or while the fault lasts; clients are expected to retry.
 */
public final class RequestFaults {

  private static final class Rule {
    final Predicate<RequestAttributes> which;
    final StatusReason reason;
    int remaining;

    Rule(Predicate<RequestAttributes> which, StatusReason reason, int remaining) {
      this.which = which;
      this.reason = reason;
      this.remaining = remaining;
    }
  }

  private final List<Rule> rules = new ArrayList<>();

  /** Fails the next {@code count} selected requests. */
  public void failNext(Predicate<RequestAttributes> which, int count, StatusReason reason) {
    rules.add(new Rule(which, reason, count));
  }

  /** Fails every selected request until {@link #clear()}. */
  public void failWhile(Predicate<RequestAttributes> which, StatusReason reason) {
    rules.add(new Rule(which, reason, -1));
  }

  public void clear() {
    rules.clear();
  }

  Optional<ApiException> check(RequestAttributes request) {
    for (Rule r : rules) {
      if (r.remaining != 0 && r.which.test(request)) {
        if (r.remaining > 0) {
          r.remaining--;
        }
        return Optional.of(new ApiException(r.reason, message(r.reason)));
      }
    }
    return Optional.empty();
  }

  private static String message(StatusReason reason) {
    switch (reason) {
      case TOO_MANY_REQUESTS:
        return "Too many requests, please try again later.";
      case SERVICE_UNAVAILABLE:
        return "the server is currently unable to handle the request";
      default:
        return "the server reported " + reason.reason();
    }
  }
}
