package io.kuik.kube.syncer;

import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.Validated;
import io.kuik.syncer.Input;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The one rule that turns an informer notification into a core input
 * (docs/architecture.md#from-a-notification-to-an-input), for every executor: production hands it
 * what fabric8's informers announce, the simulator what its simulated informers announce, and only
 * that transport differs.
 *
 * <ul>
 *   <li>Before the start, nothing reaches the core: the caches fill, and the start reads them.
 *   <li>A pod or a namespace is announced only when its record (what the core reads of it) changes:
 *       a status update, an annotation, a finalizer or a relist of unchanged objects costs nothing.
 *   <li>After the start, a late add that repeats what the start saw is dropped ({@link
 *       SeenAtStart}), for {@link #SEEN_AT_START_KEPT}.
 *   <li>A routing resource is converted once and announced only when its validated form changes
 *       (not for a status write, the syncer's own among them); this rule keeps the {@link
 *       RoutingCache} the view reads.
 *   <li>A Secret of the cluster resource namespace is always announced.
 * </ul>
 *
 * <p>Confined to the core's thread, like the core.
 */
public final class Intake {

  /** How long the start's late notifications are looked for: they come within seconds. */
  static final Duration SEEN_AT_START_KEPT = Duration.ofMinutes(1);

  private final InformerStores stores;
  private final SeenAtStart seenAtStart = new SeenAtStart();
  private Instant startedAt;

  public Intake(InformerStores stores) {
    this.stores = stores;
  }

  /** The informers have synced (and this process may write): the core starts from their view. */
  public Input started(Instant now) {
    if (startedAt == null) {
      startedAt = now;
      for (ObservedNamespace ns : stores.namespaces()) {
        seenAtStart.saw(ns.name(), ns);
        for (RewrittenPod pod : stores.pods(ns.name())) {
          seenAtStart.saw(pod.namespace() + "/" + pod.name(), pod);
        }
      }
    }
    return new Input.Started();
  }

  /** The input {@code notification} brings the core at {@code now}, if any. */
  public Optional<Input> input(Notification notification, Instant now) {
    if (startedAt != null && now.isAfter(startedAt.plus(SEEN_AT_START_KEPT))) {
      seenAtStart.clear();
    }
    if (notification instanceof Notification.PodNotified pod) {
      return pod(pod);
    }
    if (notification instanceof Notification.NamespaceNotified namespace) {
      return namespace(namespace);
    }
    if (notification instanceof Notification.RoutingNotified routing) {
      return routing(routing.id(), routing.after());
    }
    if (notification instanceof Notification.SourceNotified source) {
      return announce(new Input.SourceChanged(source.name()));
    }
    throw new AssertionError("a notification of no known kind: " + notification);
  }

  private Optional<Input> pod(Notification.PodNotified notified) {
    RewrittenPod before = notified.before() == null ? null : Records.pod(notified.before());
    RewrittenPod after = notified.after() == null ? null : Records.pod(notified.after());
    RewrittenPod any = after != null ? after : before;
    if (before != null && before.equals(after)) {
      return Optional.empty(); // a status update changes no record
    }
    if (started() && repeatsTheStart(any.namespace() + "/" + any.name(), before, after)) {
      return Optional.empty();
    }
    return announce(new Input.PodChanged(before, after));
  }

  private Optional<Input> namespace(Notification.NamespaceNotified notified) {
    ObservedNamespace before =
        notified.before() == null ? null : Records.namespace(notified.before());
    ObservedNamespace after = notified.after() == null ? null : Records.namespace(notified.after());
    String name = (after != null ? after : before).name();
    if (after == null) {
      seenAtStart.repeatsTheStart(name, false, null);
      return announce(new Input.NamespaceDeleted(name));
    }
    // Only its labels and its deletion matter: an annotation, a finalizer or a relist of 10,000
    // unchanged namespaces must not reconcile 20 pairs each.
    if (after.equals(before)) {
      return Optional.empty();
    }
    if (started() && repeatsTheStart(name, before, after)) {
      return Optional.empty();
    }
    return announce(new Input.NamespaceChanged(name));
  }

  private Optional<Input> routing(ResourceId id, Validated after) {
    if (after == null) {
      stores.routing().remove(id);
      return announce(new Input.ResourceDeleted(id));
    }
    if (after.equals(stores.routing().get(id).orElse(null))) {
      return Optional
          .empty(); // only its status or metadata changed (the syncer's own status writes)
    }
    stores.routing().put(after);
    return announce(new Input.ResourceChanged(id));
  }

  private boolean repeatsTheStart(String key, Object before, Object after) {
    return seenAtStart.repeatsTheStart(key, before == null, after);
  }

  private boolean started() {
    return startedAt != null;
  }

  /** The input, once the core started; before, the caches only fill. */
  private Optional<Input> announce(Input input) {
    return started() ? Optional.of(input) : Optional.empty();
  }
}
