package io.kuik.sim.check;

import io.kuik.sim.check.GraceLedger.History;
import io.kuik.sim.check.GraceLedger.Key;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.TraceRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The upper bound of the OnFailure grace: an auths key that a live pod needed and that nothing has
 * needed since is out of its Secret within the grace and a margin (the debounce and the watch
 * delivery) after the syncer could learn that it was unneeded: when it was first seen unneeded, or
 * later when the syncer's view was stale then ({@link Disturbances#learnedBy}). Not judged when the
 * syncer restarted since the need (a restart leaves the documented leftovers), when its writes may
 * have failed around the release (a retry comes later), or when the pair went through a state whose
 * grace ends at once ({@link GraceLedger}). The looser bound of every fault, {@link
 * CredentialsStayInScope}, covers the rest.
 */
public final class ReleasedWhenTheGraceEnds implements Invariant {

  private final Duration grace;
  private final Duration margin;
  private final Disturbances disturbances;
  private final GraceLedger ledger;

  /**
   * @param grace the documented grace, not the syncer's setting
   * @param margin how late after the grace the key may still be there
   * @param relist how long after a fault the syncer's view may still be stale
   * @param retry how long after a fault a refused write may wait for its retry
   */
  public ReleasedWhenTheGraceEnds(
      Actor syncer,
      String installNamespace,
      Duration grace,
      Duration margin,
      Duration relist,
      Duration retry) {
    this.grace = grace;
    this.margin = margin;
    this.disturbances = new Disturbances(syncer, relist, retry);
    this.ledger = new GraceLedger(installNamespace);
  }

  @Override
  public String name() {
    return "released-when-the-grace-ends";
  }

  @Override
  public List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    disturbances.read(newRecords, view.now());
    ledger.observe(view, disturbances.staleAt(view.now()));
    List<Violation> out = new ArrayList<>();
    for (Map.Entry<Key, History> e : ledger.keys().entrySet()) {
      History h = e.getValue();
      if (h.podNeed == null
          || h.unneededSince == null
          || !h.heldNow
          || disturbances.restartedSince(h.podNeed)
          || h.exemptSince(h.podNeed)) {
        continue;
      }
      Instant learned = disturbances.learnedBy(h.podNeed, h.unneededSince);
      Instant deadline = learned.plus(grace).plus(margin);
      if (!view.now().isAfter(deadline)
          || disturbances.failingDuring(h.podNeed.plus(grace), view.now())) {
        continue;
      }
      out.add(
          new Violation(
              name(),
              e.getKey()
                  + " is still held "
                  + Duration.between(learned, view.now())
                  + " after the syncer could know nothing needed it; allowed: "
                  + grace.plus(margin),
              e.getKey().target()));
    }
    return out;
  }
}
