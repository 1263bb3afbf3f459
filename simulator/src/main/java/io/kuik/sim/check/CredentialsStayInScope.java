package io.kuik.sim.check;

import io.kuik.sim.check.WorldView.InjectSecret;
import io.kuik.sim.check.WorldView.NamespaceView;
import io.kuik.sim.check.WorldView.ResourceView;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.TraceRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Safety: a {@code kuik-inject-*} Secret holds a credential only for an entry that its pair needs
 * now, or needed recently enough (docs/behaviour.md#where-a-secret-lands,
 * docs/behaviour.md#releasing-credentials). "Recently enough" is the grace (OnFailure) plus a
 * slack: the longest the syncer can honestly take to learn of the change under the explorer's
 * faults (a resync period, the retry cap, the longest fault windows, a margin).
 *
 * <p>The documented restart leftovers (docs/behaviour.md#restarts) are modelled by who wrote the
 * Secret last: a Secret is checked only when the syncer's last successful apply of it came after
 * the syncer's last START, i.e. the running incarnation wrote it and so keeps it in its written
 * set. A Secret last written by an earlier incarnation is a possible leftover: it may keep its
 * content until its pair is needed again, when the running incarnation writes it and it is checked
 * again. This is weaker than modelling each leftover, but it never accuses the syncer of a
 * documented behaviour.
 */
public final class CredentialsStayInScope implements Invariant {

  private final Actor syncer;
  private final Duration grace;
  private final Duration slack;
  private final Duration staleness;

  /** "ns/secret|key" to the last instant the key was seen needed. */
  private final Map<String, Instant> lastNeeded = new HashMap<>();

  /** Target to the trace position of the syncer's last successful apply. */
  private final Map<Target, Long> lastApply = new HashMap<>();

  /** Target to when the syncer last changed it (applies that changed nothing do not count). */
  private final Map<Target, Instant> lastChange = new HashMap<>();

  /** The longest a late (not lost) watch event may leave the syncer's view stale. */
  private static final Duration DELAY = Duration.ofMinutes(1);

  /** When a watch event to the syncer was last lost (dropped, or cut off by an expiry). */
  private Instant lastLoss;

  private long lastStart = -1;
  private long position;

  /**
   * @param staleness how long after a lost watch event the syncer's view may still be stale: the
   *     longest watch-fault window (it heals with a relist) and a margin
   */
  public CredentialsStayInScope(Actor syncer, Duration grace, Duration slack, Duration staleness) {
    this.staleness = staleness;
    this.syncer = syncer;
    this.grace = grace;
    this.slack = slack;
  }

  @Override
  public String name() {
    return "credentials-stay-in-scope";
  }

  @Override
  public List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    for (TraceRecord record : newRecords) {
      position++;
      if (record instanceof TraceRecord.WatchDelivery w
          && w.owner().equals(syncer)
          && w.fate() != TraceRecord.WatchDelivery.Fate.DELIVERED) {
        lastLoss = w.at();
      }
      if (record instanceof Note.Incarnation edge && edge.actor().equals(syncer)) {
        // A stopped syncer cannot release anything, and the next incarnation starts with an
        // empty written set: from a crash on, the previous writes are possible leftovers.
        lastStart = position;
      } else if (record instanceof TraceRecord.Request r
          && r.actor().equals(syncer)
          && r.kind() == RequestKind.APPLY
          && r.succeeded()) {
        lastApply.put(r.target(), position);
        boolean changed = r.changedSomething();
        boolean mayBeStale =
            lastLoss != null && Duration.between(lastLoss, r.at()).compareTo(staleness) < 0;
        if (changed) {
          lastChange.put(r.target(), mayBeStale ? r.at() : r.at().minus(slack).plus(DELAY));
        }
      }
    }
    for (ResourceView resource : view.resources().values()) {
      for (NamespaceView namespace : view.namespaces().values()) {
        for (String key : Scope.neededKeys(resource, namespace, view)) {
          lastNeeded.put(namespace.name() + "/" + resource.secretName() + "|" + key, view.now());
        }
      }
    }
    List<Violation> out = new ArrayList<>();
    Duration allowed = grace.plus(slack);
    for (InjectSecret secret : view.injectSecrets().values()) {
      if (secret.auths().isEmpty() || lastApply.getOrDefault(secret.target(), -1L) < lastStart) {
        continue; // holds nothing, or a possible leftover of an earlier incarnation
      }
      Instant changed = lastChange.get(secret.target());
      if (changed != null && Duration.between(changed, view.now()).compareTo(slack) < 0) {
        continue; // written from a view that may be stale (lost watch events): not judged yet
      }
      for (String key : secret.auths().keySet()) {
        Instant needed = lastNeeded.get(secret.namespace() + "/" + secret.name() + "|" + key);
        if (needed == null || Duration.between(needed, view.now()).compareTo(allowed) > 0) {
          out.add(
              new Violation(
                  name(),
                  secret.namespace()
                      + "/"
                      + secret.name()
                      + " holds a credential for "
                      + key
                      + (needed == null
                          ? ", which its pair never needed"
                          : ", which its pair last needed "
                              + Duration.between(needed, view.now())
                              + " ago (allowed: grace "
                              + grace
                              + " + slack "
                              + slack
                              + ")"),
                  secret.target()));
        }
      }
    }
    return out;
  }
}
