package io.kuik.syncer;

import io.kuik.model.Entry;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RoutingResource;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a pair's Secret must hold now (docs/behaviour.md#where-a-secret-lands and
 * #releasing-credentials): the decision, pure. The caller keeps {@link #clocks} for the next look
 * and looks again at {@link #nextExpiry}.
 *
 * @param keys the auths keys to hold, in order; empty when the pair needs no Secret
 * @param clocks the pair's grace clocks after this look ({@link GraceClocks#NONE} unless OnFailure)
 * @param nextExpiry when the next held key's grace ends, if one runs
 * @param notRecognized the pods' claims of the resource that count for nothing (OnFailure only)
 */
record Hold(
    Set<String> keys,
    GraceClocks clocks,
    Optional<Instant> nextExpiry,
    List<Claims.NotRecognized> notRecognized) {

  Hold {
    keys = Collections.unmodifiableSet(new TreeSet<>(keys));
    Objects.requireNonNull(clocks, "clocks");
    Objects.requireNonNull(nextExpiry, "nextExpiry");
    notRecognized = List.copyOf(notRecognized);
  }

  /**
   * The keys of {@code resource} that the pair with the namespace of {@code namespaceLabels} and
   * {@code pods} must hold at {@code now}, given the pair's grace clocks from its last look.
   *
   * <ul>
   *   <li>{@code Always}: every injecting entry, in a served namespace the namespaceSelector
   *       selects; podSelector does not narrow it.
   *   <li>{@code OnFailure}: the injecting entries serving the containers whose claim of a rewrite
   *       counts ({@link Claims}: the webhook could have made it), plus those released less than
   *       {@code grace} ago, in a served namespace. A namespace that leaves the namespaceSelector
   *       recognizes no claim any more, so what its pods used starts its grace, as when they go.
   *   <li>{@code None}: nothing.
   * </ul>
   *
   * In a namespace this instance does not serve, nothing is held and every grace ends: another
   * instance, or none, serves it.
   */
  static Hold keysToHold(
      RoutingResource resource,
      String namespace,
      Map<String, String> namespaceLabels,
      Collection<RewrittenPod> pods,
      Targeting targeting,
      GraceClocks clocks,
      Duration grace,
      Instant now) {
    Map<String, String> labels = namespaceLabels == null ? Map.of() : namespaceLabels;
    boolean served = targeting.serves(namespace, labels);
    Set<String> injecting = injectingKeys(resource);
    if (resource.rewritePolicy() == RewritePolicy.ALWAYS) {
      // Grace belongs to OnFailure needs: a clock left from an earlier OnFailure spell of the
      // resource would otherwise bring back a released key when it flips back to OnFailure.
      boolean inScope = served && resource.selectsNamespace(labels);
      return new Hold(
          inScope ? injecting : Set.of(), GraceClocks.NONE, Optional.empty(), List.of());
    }
    if (resource.rewritePolicy() != RewritePolicy.ON_FAILURE) {
      return new Hold(
          Set.of(), GraceClocks.NONE, Optional.empty(), List.of()); // None: never routed
    }
    Claims claims = served ? Claims.judge(resource, labels, pods) : Claims.NONE;
    Set<String> neededNow = new LinkedHashSet<>();
    for (Entry entry : claims.recognized()) {
      if (injecting.contains(entry.authsKey())) {
        neededNow.add(entry.authsKey());
      }
    }
    GraceClocks after = clocks.look(neededNow, served ? injecting : Set.of(), now, grace);
    return new Hold(after.held(), after, after.nextExpiry(grace), claims.notRecognized());
  }

  static Set<String> injectingKeys(RoutingResource resource) {
    Set<String> keys = new LinkedHashSet<>();
    for (Entry entry : resource.entries()) {
      if (entry.auth() != null && entry.auth().injects()) {
        keys.add(entry.authsKey());
      }
    }
    return keys;
  }
}
