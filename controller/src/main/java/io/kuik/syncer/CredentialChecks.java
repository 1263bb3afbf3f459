package io.kuik.syncer;

import io.kuik.model.CredentialTrial;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.TrialVerdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
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
 * ahead of time"): one trial per registry and credential, for the pull of every path that shares
 * them. A credential is tried as soon as an entry or a source Secret brings it (a new registry and
 * credential, or a path it was not tried for), and then at most once per resync period: a
 * credential the registry refused is not tried again sooner, so that kuik never locks an account
 * out by repeating a wrong password. Keeps what each registry last answered, so that each
 * resource's condition can be decided from it. Pure: the core asks it what is due and tells it what
 * was answered.
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

  /** What is known of one registry and credential. */
  private static final class Known {
    Instant triedAt;
    Set<String> triedPaths = Set.of();
    TrialVerdict verdict;
    boolean inFlight;
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
    dropUnused();
    return !now.equals(before == null ? List.of() : before);
  }

  /** The resource went or is invalid; returns whether it had injecting entries. */
  boolean forget(ResourceId id) {
    List<Target> before = targets.remove(id);
    dropUnused();
    return before != null && !before.isEmpty();
  }

  /**
   * The trials due by {@code now}, each marked in flight: a registry and credential never tried, or
   * not for one of its paths, or last tried {@code period} ago or more. One already in flight waits
   * for its answer.
   */
  List<CredentialTrial> due(Instant now, Duration period) {
    List<CredentialTrial> due = new ArrayList<>();
    for (Map.Entry<CredentialTrial.Key, Known> e : known.entrySet()) {
      Known k = e.getValue();
      Set<String> paths = paths(e.getKey());
      Instant at = dueAt(k, paths, now, period);
      if (!k.inFlight && at != null && !at.isAfter(now)) {
        k.inFlight = true;
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
    for (Map.Entry<CredentialTrial.Key, Known> e : known.entrySet()) {
      if (e.getValue().inFlight) {
        continue;
      }
      Instant at = dueAt(e.getValue(), paths(e.getKey()), now, period);
      if (at != null && (next == null || at.isBefore(next))) {
        next = at;
      }
    }
    return Optional.ofNullable(next);
  }

  /** When the key is due again; null when never (a zero period: only a change tries again). */
  private static Instant dueAt(Known k, Set<String> paths, Instant now, Duration period) {
    if (k.triedAt == null || !k.triedPaths.containsAll(paths)) {
      return now;
    }
    if (period.isZero()) {
      return null;
    }
    Instant again = k.triedAt.plus(period);
    return again.isAfter(now) ? again : now;
  }

  /**
   * A registry answered a trial: kept, and the resources whose entries share its registry and
   * credential returned, for their condition may have changed. An answer for a credential no longer
   * used is dropped.
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

  private void dropUnused() {
    Set<CredentialTrial.Key> used = new HashSet<>();
    targets.values().forEach(list -> list.forEach(t -> used.add(t.key())));
    known.keySet().retainAll(used);
  }
}
