package io.kuik.syncer;

import io.kuik.model.CredentialTrial;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.TrialVerdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which credentials to try on their registries, and when (docs/behaviour.md, "Credentials tried
 * ahead of time"; docs/decisions/0064-trial-bound-over-a-sliding-period.md): one trial per registry
 * and credential, for the pull of every path that shares them. A credential is tried as soon as an
 * entry or a source Secret brings it, and then once per resync period. Whatever changes in between,
 * a registry and credential is tried at most {@value #MOST_PER_PERIOD} times in any sliding period
 * (the resync period, or {@link #LEAST_PERIOD} without one): once, and once more only for paths it
 * was not tried for after the registry accepted it. A credential the registry refused, or that got
 * no answer, waits for the period, so that kuik never locks an account out by repeating a wrong
 * password.
 *
 * <p>The bound is kept per registry and credential, not per entry, resource or source: what was
 * tried in the last period is remembered after no entry uses it any more (until the period has
 * passed), so that a source that flaps, an entry renamed, or a resource deleted and created again
 * brings back a credential already tried, not a new one. Keeps what each registry last answered, so
 * that each resource's condition can be decided from it. Pure: the core asks it what is due and
 * tells it what was answered.
 */
final class CredentialChecks {

  /** An injecting entry as its credential is tried: its key, registry, path and credential. */
  record Target(String authsKey, String registry, String path, RegistryCredential credential) {
    Target {
      Objects.requireNonNull(authsKey, "authsKey");
      Objects.requireNonNull(registry, "registry");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(credential, "credential");
    }

    CredentialTrial.Key key() {
      return new CredentialTrial.Key(registry, credential);
    }
  }

  /** An injecting entry, and what its registry last answered and when (null: not yet). */
  record Tried(Target target, TrialVerdict verdict, Instant at) {}

  /** Trials of one registry and credential in any sliding period, at most. */
  static final int MOST_PER_PERIOD = 2;

  /** The sliding period of the bound when there is no resync period. */
  static final Duration LEAST_PERIOD = Duration.ofMinutes(10);

  /** What is known of one registry and credential. */
  private static final class Known {
    Instant triedAt;
    Set<String> triedPaths = Set.of();
    TrialVerdict verdict;
    boolean inFlight;

    /** When each trial within the last sliding period was sent, oldest first. */
    final Deque<Instant> sent = new ArrayDeque<>();
  }

  private final Map<ResourceId, List<Target>> targets = new HashMap<>();
  private final Map<CredentialTrial.Key, Known> known = new LinkedHashMap<>();

  /**
   * The resource's injecting entries, as they resolve now (after a change of the resource or of a
   * source Secret): a registry and credential not seen before is due at once. Returns whether they
   * differ from the last ones.
   */
  boolean entries(ResourceId id, List<Target> now) {
    List<Target> before = targets.put(id, List.copyOf(now));
    for (Target target : now) {
      known.computeIfAbsent(target.key(), key -> new Known());
    }
    return !now.equals(before == null ? List.of() : before);
  }

  /** The resource went or is invalid; returns whether it had injecting entries. */
  boolean forget(ResourceId id) {
    List<Target> before = targets.remove(id);
    return before != null && !before.isEmpty();
  }

  /**
   * The trials due by {@code now}, each marked in flight: a registry and credential never tried, or
   * not for one of its paths, or last tried {@code period} ago or more. One already in flight waits
   * for its answer.
   */
  List<CredentialTrial> due(Instant now, Duration period) {
    Duration window = window(period);
    Set<CredentialTrial.Key> used = used();
    known
        .entrySet()
        .removeIf(e -> !used.contains(e.getKey()) && forgettable(e.getValue(), now, window));
    List<CredentialTrial> due = new ArrayList<>();
    for (Map.Entry<CredentialTrial.Key, Known> e : known.entrySet()) {
      Known k = e.getValue();
      if (!used.contains(e.getKey())) {
        continue; // remembered for the bound, tried again only once an entry brings it back
      }
      Set<String> paths = paths(e.getKey());
      Instant at = dueAt(k, paths, now, period);
      if (!k.inFlight && at != null && !at.isAfter(now)) {
        k.inFlight = true;
        k.sent.addLast(now);
        due.add(
            new CredentialTrial(
                e.getKey().registry(), e.getKey().credential(), new TreeSet<>(paths)));
      }
    }
    due.sort(Comparator.comparing(CredentialTrial::registry));
    return due;
  }

  /** When the next trial falls due (not counting those in flight), if any. */
  Optional<Instant> nextDue(Instant now, Duration period) {
    Instant next = null;
    Set<CredentialTrial.Key> used = used();
    for (Map.Entry<CredentialTrial.Key, Known> e : known.entrySet()) {
      if (e.getValue().inFlight || !used.contains(e.getKey())) {
        continue;
      }
      Instant at = dueAt(e.getValue(), paths(e.getKey()), now, period);
      if (at != null && (next == null || at.isBefore(next))) {
        next = at;
      }
    }
    return Optional.ofNullable(next);
  }

  /**
   * When the key is due again, never sooner than the bound allows; null when never (a zero period:
   * only a change tries again). Due at once: never tried in the sliding period, or (accepted) not
   * for every path; else one period after its last answer.
   */
  private static Instant dueAt(Known k, Set<String> paths, Instant now, Duration period) {
    Duration window = window(period);
    while (!k.sent.isEmpty() && !k.sent.peekFirst().plus(window).isAfter(now)) {
      k.sent.removeFirst(); // out of the sliding period
    }
    Instant wanted;
    if (k.sent.isEmpty() && (k.triedAt == null || !k.triedPaths.containsAll(paths))) {
      wanted = now;
    } else if (!k.triedPaths.containsAll(paths) && accepted(k)) {
      wanted = now;
    } else if (period.isZero()) {
      if (k.triedAt == null || k.triedPaths.containsAll(paths)) {
        return null;
      }
      wanted = k.sent.peekLast().plus(window); // a new path of a refused credential
    } else {
      wanted = k.triedAt == null ? now : k.triedAt.plus(period);
    }
    Instant allowed = k.sent.size() < MOST_PER_PERIOD ? now : k.sent.peekFirst().plus(window);
    Instant at = wanted.isAfter(allowed) ? wanted : allowed;
    return at.isAfter(now) ? at : now;
  }

  private static boolean accepted(Known k) {
    return k.verdict != null && k.verdict.outcome() == TrialVerdict.Outcome.ACCEPTED;
  }

  private static Duration window(Duration period) {
    return period.isZero() ? LEAST_PERIOD : period;
  }

  /** A key no entry uses, whose last trial left the sliding period: nothing to bound any more. */
  private static boolean forgettable(Known k, Instant now, Duration window) {
    return !k.inFlight && (k.sent.isEmpty() || !k.sent.peekLast().plus(window).isAfter(now));
  }

  /**
   * A registry answered a trial: kept, and the resources whose entries share its registry and
   * credential returned, for their condition may have changed. An answer for a credential no longer
   * used is kept for the bound, and reaches no resource.
   */
  Set<ResourceId> answered(CredentialTrial trial, TrialVerdict verdict, Instant now) {
    CredentialTrial.Key key = trial.key();
    Known k = known.get(key);
    if (k == null) {
      return Set.of();
    }
    k.inFlight = false;
    k.triedAt = now;
    k.triedPaths = Set.copyOf(trial.paths());
    k.verdict = verdict;
    Set<ResourceId> affected = new HashSet<>();
    targets.forEach(
        (id, list) -> {
          if (list.stream().anyMatch(t -> t.key().equals(key))) {
            affected.add(id);
          }
        });
    return affected;
  }

  /** The outcome of each of the resource's injecting entries, as its condition reads them. */
  List<CredentialsCondition.EntryOutcome> outcomes(ResourceId id) {
    List<CredentialsCondition.EntryOutcome> outcomes = new ArrayList<>();
    for (Target target : targets.getOrDefault(id, List.of())) {
      Known k = known.get(target.key());
      outcomes.add(
          new CredentialsCondition.EntryOutcome(
              target.authsKey(), target.registry(), k == null ? null : k.verdict));
    }
    return outcomes;
  }

  /** Each of the resource's injecting entries, and what its registry last answered, in order. */
  List<Tried> tried(ResourceId id) {
    List<Tried> tried = new ArrayList<>();
    for (Target target : targets.getOrDefault(id, List.of())) {
      Known k = known.get(target.key());
      tried.add(new Tried(target, k == null ? null : k.verdict, k == null ? null : k.triedAt));
    }
    return tried;
  }

  /**
   * The paths a trial of the key asks for: those of every entry sharing it, as a trial keeps them.
   */
  private Set<String> paths(CredentialTrial.Key key) {
    TreeSet<String> paths = new TreeSet<>();
    targets
        .values()
        .forEach(
            list ->
                list.stream().filter(t -> t.key().equals(key)).forEach(t -> paths.add(t.path())));
    return new CredentialTrial(key.registry(), key.credential(), paths).paths();
  }

  private Set<CredentialTrial.Key> used() {
    Set<CredentialTrial.Key> used = new HashSet<>();
    targets.values().forEach(list -> list.forEach(t -> used.add(t.key())));
    return used;
  }

  /** Every credential tried or to be tried, those remembered for the bound included. */
  Set<RegistryCredential> credentials() {
    Set<RegistryCredential> all = new HashSet<>();
    known.keySet().forEach(key -> all.add(key.credential()));
    return all;
  }
}
