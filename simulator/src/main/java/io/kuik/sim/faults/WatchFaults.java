package io.kuik.sim.faults;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.time.SimRandom;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.watch.DeliveryFaults;
import io.kuik.sim.world.watch.WatchInfo;
import io.kuik.sim.world.watch.Watches;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Faults on the way from the API server to watchers. Fault model: a watch event can be late, lost
 * (a broken stream that the client has not noticed yet), or overtaken by the next one; a watch can
 * expire (410 Gone) at any time. Loss and expiry are real, and clients recover by relisting: a
 * window of lost or late events ends with the watches expired, as a client whose broken stream
 * times out lists again. Reordering within one watch never happens on a real API server (etcd
 * orders a watch's events); it is here to explore robustness and must be asked for explicitly.
 *
 * <p>Windows opened with {@link #dropFor} and {@link #delayFor} are marked in the trace ({@link
 * Note.Fault#WATCH_FAULT}), where the checkers see them.
 */
public final class WatchFaults implements DeliveryFaults {

  private interface Rule {
    boolean applies(WatchInfo watch);
  }

  private static final class Drop implements Rule {
    final Predicate<WatchInfo> which;
    int remaining;
    final double probability;
    final SimRandom random;

    Drop(Predicate<WatchInfo> which, int remaining, double probability, SimRandom random) {
      this.which = which;
      this.remaining = remaining;
      this.probability = probability;
      this.random = random;
    }

    @Override
    public boolean applies(WatchInfo watch) {
      if (!which.test(watch)) {
        return false;
      }
      if (random != null) {
        return random.chance(probability);
      }
      if (remaining > 0) {
        remaining--;
        return true;
      }
      return false;
    }
  }

  private record Delay(Predicate<WatchInfo> which, Duration extra) {}

  private static final class Reorder {
    final Predicate<WatchInfo> which;
    int remaining;

    Reorder(Predicate<WatchInfo> which, int remaining) {
      this.which = which;
      this.remaining = remaining;
    }
  }

  private final Watches watches;
  private final EventLoop loop;
  private final Trace trace;
  private final List<Drop> drops = new ArrayList<>();
  private final List<Delay> delays = new ArrayList<>();
  private final List<Reorder> reorders = new ArrayList<>();

  private WatchFaults(ApiServer api) {
    this.watches = api.watches();
    this.loop = api.loop();
    this.trace = api.trace();
  }

  /** The watch faults of this API server, from now on. */
  public static WatchFaults on(ApiServer api) {
    WatchFaults faults = new WatchFaults(api);
    api.watches().setFaults(faults);
    return faults;
  }

  /** Selects every watch. */
  public static Predicate<WatchInfo> all() {
    return w -> true;
  }

  /** Selects the watches with this name. */
  public static Predicate<WatchInfo> named(String name) {
    return w -> w.name().equals(name);
  }

  /** Loses the next {@code count} events sent to the selected watches. */
  public void dropNext(Predicate<WatchInfo> which, int count) {
    drops.add(new Drop(which, count, 0, null));
  }

  /** Loses each event to the selected watches with {@code probability}, until cleared. */
  public void dropRandomly(Predicate<WatchInfo> which, double probability, SimRandom random) {
    drops.add(new Drop(which, 0, probability, random));
  }

  /** Adds {@code extra} to every delivery to the selected watches, until cleared. */
  public void delay(Predicate<WatchInfo> which, Duration extra) {
    delays.add(new Delay(which, extra));
  }

  /** Holds the next event of the selected watches back until the one after it is delivered. */
  public void reorderNext(Predicate<WatchInfo> which) {
    reorders.add(new Reorder(which, 1));
  }

  /** Heals every watch fault. */
  public void clear() {
    drops.clear();
    delays.clear();
    reorders.clear();
  }

  /** Closes the selected watches as expired (410 Gone): their clients list again. */
  public void expire(Predicate<WatchInfo> which) {
    watches.expire(which);
  }

  /**
   * For {@code window}, loses each event to the selected watches ({@code subject} in the trace)
   * with {@code probability}; then every watch fault heals ({@link #heal}).
   */
  public void dropFor(
      Predicate<WatchInfo> which,
      String subject,
      double probability,
      SimRandom random,
      Duration window) {
    dropRandomly(which, probability, random);
    opens(subject, "dropped (p=" + probability + ") for " + window);
    healAfter(which, subject, window);
  }

  /** For {@code window}, delivers every event to the selected watches {@code extra} late. */
  public void delayFor(
      Predicate<WatchInfo> which, String subject, Duration extra, Duration window) {
    delay(which, extra);
    opens(subject, "delayed " + extra + " for " + window);
    healAfter(which, subject, window);
  }

  /**
   * Every watch fault heals, and the selected watches expire so that their clients relist, as a
   * client whose broken stream times out does.
   */
  public void heal(Predicate<WatchInfo> which, String subject, String detail) {
    clear();
    expire(which);
    trace.add(new Note.FaultWindow(loop.now(), Note.Fault.WATCH_FAULT, false, subject, detail));
  }

  private void opens(String subject, String detail) {
    trace.add(new Note.FaultWindow(loop.now(), Note.Fault.WATCH_FAULT, true, subject, detail));
  }

  private void healAfter(Predicate<WatchInfo> which, String subject, Duration window) {
    loop.schedule(
        window,
        "watch faults on " + subject + " heal",
        () -> heal(which, subject, "faults cleared, watches expired"));
  }

  @Override
  public boolean drop(WatchInfo watch) {
    boolean dropped = false;
    for (Drop d : drops) {
      dropped |= d.applies(watch);
      if (dropped) {
        break;
      }
    }
    drops.removeIf(d -> d.random == null && d.remaining == 0);
    return dropped;
  }

  @Override
  public Duration extraDelay(WatchInfo watch) {
    Duration extra = Duration.ZERO;
    for (Delay d : delays) {
      if (d.which().test(watch)) {
        extra = extra.plus(d.extra());
      }
    }
    return extra;
  }

  @Override
  public boolean holdBack(WatchInfo watch) {
    for (Reorder r : reorders) {
      if (r.remaining > 0 && r.which.test(watch)) {
        r.remaining--;
        reorders.removeIf(x -> x.remaining == 0);
        return true;
      }
    }
    return false;
  }
}
