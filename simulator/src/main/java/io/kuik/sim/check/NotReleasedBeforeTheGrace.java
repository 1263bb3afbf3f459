package io.kuik.sim.check;

import io.kuik.sim.check.GraceLedger.History;
import io.kuik.sim.check.GraceLedger.Key;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.TraceRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The lower bound of the OnFailure grace: an auths key that a live pod needed less than the grace
 * ago is still in its Secret. A key the syncer takes out sooner is a violation unless the history
 * allows it: the syncer restarted since that need (its grace clocks are lost, and a restart may
 * only shorten how long a credential lingers), its view may have been stale at that need so that it
 * never saw the pod ({@link Disturbances}; a fault after it can only make a release later), or the
 * pair went through a state that ends a grace at once ({@link GraceLedger}). Judged on Secrets that
 * exist and held the key at the previous check; one deleted by a person is the resync's business.
 */
public final class NotReleasedBeforeTheGrace implements Invariant {

  private final Duration grace;
  private final Disturbances disturbances;
  private final GraceLedger ledger;

  /**
   * @param grace the documented grace, not the syncer's setting
   * @param aftermath how long after a fault the syncer's view may still be stale (its relist)
   */
  public NotReleasedBeforeTheGrace(
      Actor syncer, String installNamespace, Duration grace, Duration aftermath) {
    this.grace = grace;
    this.disturbances = new Disturbances(syncer, aftermath, aftermath);
    this.ledger = new GraceLedger(installNamespace);
  }

  @Override
  public String name() {
    return "not-released-before-the-grace";
  }

  @Override
  public List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    disturbances.read(newRecords, view.now());
    ledger.observe(view, disturbances.staleAt(view.now()));
    List<Violation> out = new ArrayList<>();
    for (Map.Entry<Key, History> e : ledger.keys().entrySet()) {
      History h = e.getValue();
      if (h.podNeed == null
          || !h.heldBefore
          || h.heldNow
          || !h.secretExists
          || Duration.between(h.podNeed, view.now()).compareTo(grace) >= 0
          || h.podNeedStale
          || disturbances.restartedSince(h.podNeed)
          || h.exemptSince(h.podNeed)) {
        continue;
      }
      out.add(
          new Violation(
              name(),
              e.getKey()
                  + " was taken out "
                  + Duration.between(h.podNeed, view.now())
                  + " at most after a live pod last needed it; the grace is "
                  + grace,
              e.getKey().target()));
    }
    return out;
  }
}
