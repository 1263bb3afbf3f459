package io.kuik.syncer;

import io.kuik.model.ResourceId;
import io.kuik.model.Validated;
import io.kuik.ports.StatusWriter.Status;
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
import java.util.stream.Collectors;

/**
 * The status of each routing resource, decided from what the core knows and written coalesced
 * (docs/decisions/0011-status-of-routing-resources.md): a resource whose count or validity changes
 * is due again at most once per {@link #MIN_INTERVAL}, however many pods and namespaces changed in
 * between, and a status equal to the last one written is not written at all.
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
  private final Map<ResourceId, Status> written = new HashMap<>();
  private final Map<ResourceId, Instant> lastWrite = new HashMap<>();
  private final Map<ResourceId, Instant> due = new HashMap<>();

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
  }

  Optional<Instant> nextDue() {
    return due.values().stream().min(Comparator.naturalOrder());
  }

  /** The resources due by {@code now}, by kind and name, so that the order is stable. */
  List<ResourceId> dueBy(Instant now) {
    return due.entrySet().stream()
        .filter(e -> !e.getValue().isAfter(now))
        .map(Map.Entry::getKey)
        .sorted(Comparator.comparing(ResourceId::toString))
        .collect(Collectors.toCollection(ArrayList::new));
  }

  /** The status the resource should show now; the transition time kept while Valid is unchanged. */
  Status desired(Validated resource, Instant now) {
    return desiredStatus(
        resource,
        holding.getOrDefault(resource.id(), Set.of()).size(),
        written.get(resource.id()),
        now);
  }

  /** Whether the status differs from the last one written (always, when none was). */
  boolean needsWrite(Status status) {
    return !status.sameAs(written.get(status.resource()));
  }

  /** Nothing to write: no longer due until it changes again. */
  void settled(ResourceId id) {
    due.remove(id);
  }

  void wrote(Status status, Instant now) {
    written.put(status.resource(), status);
    lastWrite.put(status.resource(), now);
    due.remove(status.resource());
  }

  /** Refused or not sent: due again after the interval, from what the core knows then. */
  void failed(ResourceId id, Instant now) {
    lastWrite.put(id, now);
    written.remove(id);
    due.put(id, now.plus(MIN_INTERVAL));
  }

  /**
   * The status of a resource, a pure function: {@code Valid} True with reason {@code Valid}, or
   * False with reason {@code InvalidRoutingResource} and every problem; the namespaces holding its
   * Secret; the transition time of {@code previous} when Valid did not change.
   */
  static Status desiredStatus(
      Validated resource, int secretNamespaces, Status previous, Instant now) {
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
    return new Status(
        resource.id(),
        resource.generation(),
        valid,
        valid ? REASON_VALID : REASON_INVALID,
        message,
        secretNamespaces,
        transition);
  }
}
