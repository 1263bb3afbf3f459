package io.kuik.syncer;

import io.kuik.model.ResourceId;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The status of each routing resource, decided from what the core knows and written coalesced
 * (docs/decisions/0011-status-of-routing-resources.md): a resource whose count or validity changes
 * is due again at most once per {@link #MIN_INTERVAL}, however many pods and namespaces changed in
 * between, and a status equal to the last one written is not written at all. A status write is an
 * effect like an apply: at most one per resource is in flight, and what it achieved is recorded
 * when its answer comes.
 *
 * <p>Memory is this process's only: which namespaces' Secrets hold a credential by this process's
 * applies, what it last wrote, and when each resource is due.
 */
final class ResourceStatuses {

  /** At most one status write per resource in this interval: "a few seconds" late is fine. */
  static final Duration MIN_INTERVAL = Duration.ofSeconds(5);

  static final String REASON_VALID = "Valid";
  static final String REASON_INVALID = ProblemReports.INVALID_RESOURCE;

  /** A condition's message is at most 32768 characters (metav1.Condition); keep it readable. */
  static final int MESSAGE_MAX = 1024;

  private final Map<ResourceId, Set<String>> holding = new HashMap<>();
  private final Map<ResourceId, RoutingStatus> written = new HashMap<>();
  private final Map<ResourceId, Instant> lastWrite = new HashMap<>();
  private final Map<ResourceId, Instant> due = new HashMap<>();
  private final Map<ResourceId, RoutingStatus> inFlight = new HashMap<>();
  private Function<ResourceId, List<CredentialChecks.Tried>> credentials = id -> List.of();
  private java.util.function.BiFunction<ResourceId, Instant, List<ProviderCondition.EntryState>>
      providers = (id, now) -> List.of();

  /** Where each resource's injecting entries and their registries' answers are read. */
  void credentialsFrom(Function<ResourceId, List<CredentialChecks.Tried>> tried) {
    this.credentials = tried;
  }

  /** Where each resource's injecting provider entries, and what they have, are read. */
  void providersFrom(
      java.util.function.BiFunction<ResourceId, Instant, List<ProviderCondition.EntryState>>
          states) {
    this.providers = states;
  }

  /** The resource's status may have changed: due now, or when its interval ends. */
  void changed(ResourceId id, Instant now) {
    Instant earliest = lastWrite.containsKey(id) ? lastWrite.get(id).plus(MIN_INTERVAL) : now;
    Instant at = earliest.isAfter(now) ? earliest : now;
    due.merge(id, at, (a, b) -> a.isBefore(b) ? a : b);
  }

  /** The pair's Secret holds a credential by this process's last apply, or no longer does. */
  void holds(Pair pair, boolean holds, Instant now) {
    Set<String> namespaces = holding.computeIfAbsent(pair.resource(), r -> new HashSet<>());
    boolean changed =
        holds ? namespaces.add(pair.namespace()) : namespaces.remove(pair.namespace());
    if (changed) {
      changed(pair.resource(), now);
    }
  }

  void forget(ResourceId id) {
    holding.remove(id);
    written.remove(id);
    lastWrite.remove(id);
    due.remove(id);
    inFlight.remove(id);
  }

  /** When the next status not in flight is due, if any. */
  Optional<Instant> nextDue() {
    return due.entrySet().stream()
        .filter(e -> !inFlight.containsKey(e.getKey()))
        .map(Map.Entry::getValue)
        .min(Comparator.naturalOrder());
  }

  /**
   * Writes the statuses due by {@code now} that differ from the last written, in a stable order
   * (kind and name), as long as {@code token} grants a write; returns false when it stopped for
   * want of one (the rest stay due).
   */
  boolean writeDue(
      Instant now,
      InformerView view,
      Predicate<Instant> token,
      SyncerCounters counters,
      Effects out) {
    List<ResourceId> dueNow =
        due.entrySet().stream()
            .filter(e -> !e.getValue().isAfter(now) && !inFlight.containsKey(e.getKey()))
            .map(Map.Entry::getKey)
            .sorted(Comparator.comparing(ResourceId::toString))
            .collect(Collectors.toList());
    for (ResourceId id : dueNow) {
      Optional<Validated> resource = view.routingResource(id);
      if (resource.isEmpty()) {
        forget(id);
        continue;
      }
      // Redacted before it is compared: what was written is what the writer was let through.
      RoutingStatus status = out.redacted(desired(resource.get(), now));
      if (status.sameAs(written.get(id))) {
        due.remove(id); // nothing to write: no longer due until it changes again
        continue;
      }
      if (!token.test(now)) {
        return false;
      }
      counters.statusWrites++;
      inFlight.put(id, status);
      lastWrite.put(id, now);
      due.remove(id);
      out.add(new Effect.WriteStatus(status));
    }
    return true;
  }

  /**
   * The API server answered a status write: taken, it is what the resource shows; refused (or not
   * sent), the resource is due again after the interval, from what the core knows then. The answer
   * of a write for a resource forgotten since records nothing.
   */
  void answered(RoutingStatus status, Answer answer, Instant now, SyncerCounters counters) {
    ResourceId id = status.resource();
    if (inFlight.get(id) != status) {
      return;
    }
    inFlight.remove(id);
    if (answer instanceof Answer.Applied) {
      written.put(id, status);
      return;
    }
    counters.statusWriteFailures++;
    lastWrite.put(id, now);
    written.remove(id);
    due.put(id, now.plus(MIN_INTERVAL));
  }

  /** The status the resource should show now; the transition time kept while Valid is unchanged. */
  RoutingStatus desired(Validated resource, Instant now) {
    RoutingStatus previous = written.get(resource.id());
    RoutingStatus status =
        desiredStatus(
            resource,
            holding.getOrDefault(resource.id(), Set.of()).size(),
            credentials.apply(resource.id()),
            previous,
            now);
    RoutingStatus.Condition minted =
        ProviderCondition.of(providers.apply(resource.id(), now))
            .map(
                c ->
                    new RoutingStatus.Condition(
                        ProviderCondition.TYPE,
                        c.status(),
                        c.reason(),
                        c.message(),
                        previous != null
                                && previous.providers() != null
                                && previous.providers().status().equals(c.status())
                            ? previous.providers().lastTransitionTime()
                            : now))
            .orElse(null);
    return new RoutingStatus(
        status.resource(),
        status.observedGeneration(),
        status.valid(),
        status.reason(),
        status.message(),
        status.secretNamespaces(),
        status.lastTransitionTime(),
        status.credentials(),
        minted);
  }

  static RoutingStatus desiredStatus(
      Validated resource, int secretNamespaces, RoutingStatus previous, Instant now) {
    return desiredStatus(resource, secretNamespaces, List.of(), previous, now);
  }

  /**
   * The status of a resource, a pure function: {@code Valid} True with reason {@code Valid}, or
   * False with reason {@code InvalidRoutingResource} and every problem; the namespaces holding its
   * Secret; the transition time of {@code previous} when Valid did not change.
   */
  static RoutingStatus desiredStatus(
      Validated resource,
      int secretNamespaces,
      List<CredentialChecks.Tried> tried,
      RoutingStatus previous,
      Instant now) {
    boolean valid = resource instanceof Validated.Valid;
    String message =
        valid
            ? "every field is valid"
            : ((Validated.Invalid) resource)
                .problems().stream()
                    .map(p -> p.field() + ": " + p.message())
                    .collect(Collectors.joining("; "));
    if (message.length() > MESSAGE_MAX) {
      message = message.substring(0, MESSAGE_MAX - 3) + "...";
    }
    Instant transition =
        previous != null && previous.valid() == valid ? previous.lastTransitionTime() : now;
    return new RoutingStatus(
        resource.id(),
        resource.generation(),
        valid,
        valid ? REASON_VALID : REASON_INVALID,
        message,
        secretNamespaces,
        transition,
        credentials(tried, previous == null ? null : previous.credentials(), now),
        null);
  }

  /**
   * The condition CredentialsAccepted and each entry's answer; null without an injecting entry. The
   * transition time of {@code previous} is kept while the condition's status is unchanged.
   */
  static RoutingStatus.Credentials credentials(
      List<CredentialChecks.Tried> tried, RoutingStatus.Credentials previous, Instant now) {
    List<CredentialsCondition.EntryOutcome> outcomes = new ArrayList<>();
    List<RoutingStatus.Tried> entries = new ArrayList<>();
    for (CredentialChecks.Tried t : tried) {
      outcomes.add(
          new CredentialsCondition.EntryOutcome(
              t.target().authsKey(), t.target().registry(), t.verdict()));
      entries.add(
          new RoutingStatus.Tried(
              t.target().authsKey(),
              t.target().registry(),
              t.verdict() == null ? "NotTriedYet" : outcomeName(t.verdict().outcome()),
              t.verdict() == null ? null : t.verdict().answer(),
              t.at()));
    }
    return CredentialsCondition.of(outcomes)
        .map(
            c ->
                new RoutingStatus.Credentials(
                    c.status(),
                    c.reason(),
                    c.message(),
                    previous != null && previous.status().equals(c.status())
                        ? previous.lastTransitionTime()
                        : now,
                    entries))
        .orElse(null);
  }

  private static String outcomeName(io.kuik.model.TrialVerdict.Outcome outcome) {
    return switch (outcome) {
      case ACCEPTED -> "Accepted";
      case REFUSED -> "Refused";
      case UNREACHABLE -> "Unreachable";
    };
  }
}
