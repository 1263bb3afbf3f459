package io.kuik.sim.faults;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.StatusReason;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * API-server outages. Fault model: for a window of virtual time the API server answers every
 * request, of every client, with 503 ServiceUnavailable before doing anything (a control-plane
 * upgrade, an etcd leader election); nothing is lost, and once the window ends every request is
 * served again. Clients must retry; a correct syncer converges after the window.
 *
 * <p>A narrower outage answers 503 only to the requests about one object, for a window: a
 * third-party admission webhook that times out on it, a hot etcd key. Other objects are served.
 *
 * <p>Each outage is a {@link io.kuik.sim.world.RequestFaults} rule that holds only inside its
 * window, so it ends by itself and nothing is cancelled; timers at the window's edges only mark the
 * trace.
 */
public final class Outages {

  private final ApiServer api;
  private final EventLoop loop;
  private final Trace trace;

  public Outages(ApiServer api) {
    this.api = Objects.requireNonNull(api, "api");
    this.loop = api.loop();
    this.trace = api.trace();
  }

  /** 503 for every request from now for {@code window}. */
  public void apiServerUnavailable(Duration window) {
    apiServerUnavailableAt(loop.now(), window);
  }

  /** 503 for every request from {@code start} (now or later) for {@code window}. */
  public void apiServerUnavailableAt(Instant start, Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("an outage needs a positive window, not " + window);
    }
    Instant from = start.isBefore(loop.now()) ? loop.now() : start;
    Instant until = from.plus(window);
    api.faults()
        .failWhile(
            request -> !loop.now().isBefore(from) && loop.now().isBefore(until),
            StatusReason.SERVICE_UNAVAILABLE);
    loop.scheduleAt(from, "api-server outage begins", () -> edge(true, "503 for " + window));
    loop.scheduleAt(until, "api-server outage ends", () -> edge(false, "serving again"));
  }

  /** 503 for every request about objects named {@code name}, from now for {@code window}. */
  public void unavailableFor(String name, Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("an outage needs a positive window, not " + window);
    }
    Instant until = loop.now().plus(window);
    api.faults()
        .failWhile(
            request -> name.equals(request.name()) && loop.now().isBefore(until),
            StatusReason.SERVICE_UNAVAILABLE);
    edge(true, "503 for " + window + " about " + name);
    loop.scheduleAt(until, "outage about " + name + " ends", () -> edge(false, "serving " + name));
  }

  private void edge(boolean opens, String detail) {
    trace.add(new Note.FaultWindow(loop.now(), Note.Fault.API_OUTAGE, opens, "api-server", detail));
  }
}
