package io.kuik.syncer;

import io.kuik.model.TrialVerdict;
import io.kuik.model.WriteBounds;
import java.util.Objects;

/**
 * The one gate every write of the syncer passes, in production and in the simulator alike
 * (docs/architecture.md#the-write-gate): Secret applies, status writes, Events, gate releases,
 * credential trials and the stores of provider credentials all reach the world through {@link
 * SyncerWire}, and this wire sends only while the process leads (or runs without election), is not
 * stopping, and the admission policies that bound its writes are in place. It is checked at the
 * moment a write goes out, so a write decided before the lease or the policy went is not sent: a
 * write is answered with the gate's refusal, an Event is dropped, a trial is answered that nothing
 * was tried.
 *
 * <p>The core holds its own writes while the policy is away ({@link Input.WriteBoundsChanged}): it
 * decides nothing into a write then, and keeps the Events it would record until the end of the
 * hold. The gate stops what was already on its way. Thread-safe: the state is read on the senders'
 * threads and changed on the lease's and the policy watch's.
 */
public final class WriteGate implements SyncerWire {

  static final Answer.Refused NOT_LEADER =
      new Answer.Refused(0, "NotLeader", "this instance does not hold the lease; nothing was sent");
  static final Answer.Refused SHUTTING_DOWN =
      new Answer.Refused(0, "ShuttingDown", "the syncer is stopping; nothing was sent");

  /** The reason of the refusal a write gets while the admission policy is away. */
  public static final String NO_ADMISSION_POLICY = "NoAdmissionPolicy";

  private final SyncerWire wire;
  private volatile boolean leading;
  private volatile boolean stopping;
  private volatile WriteBounds bounds;
  private long stopped;

  /**
   * Closed until {@link #leading} and {@link #bounds} open it.
   *
   * @param wire the executor's own transport, which only this gate calls
   */
  public WriteGate(SyncerWire wire) {
    this.wire = Objects.requireNonNull(wire, "wire");
    this.bounds = WriteBounds.unreadable("the admission policy has not been read yet");
  }

  /** Whether this process leads (always, without leader election). */
  public void leading(boolean value) {
    leading = value;
  }

  /** What the policy watch last decided. */
  public void bounds(WriteBounds value) {
    bounds = Objects.requireNonNull(value, "bounds");
  }

  /** The process is stopping: nothing more is written, whoever holds the lease. */
  public void stopping() {
    stopping = true;
  }

  public WriteBounds bounds() {
    return bounds;
  }

  public boolean isOpen() {
    return refusal() == null;
  }

  /** Writes the gate stopped so far (Events and trials included). */
  public synchronized long stopped() {
    return stopped;
  }

  /** Why a write is not sent now; null while the gate is open. */
  public Answer.Refused refusal() {
    if (stopping) {
      return SHUTTING_DOWN;
    }
    if (!leading) {
      return NOT_LEADER;
    }
    WriteBounds now = bounds;
    return now.inPlace()
        ? null
        : new Answer.Refused(0, NO_ADMISSION_POLICY, now.why() + "; nothing was sent");
  }

  @Override
  public Answer apply(Effect.ApplySecret apply) {
    Answer.Refused closed = closed();
    return closed != null ? closed : wire.apply(apply);
  }

  @Override
  public Answer write(Effect.WriteStatus write) {
    Answer.Refused closed = closed();
    return closed != null ? closed : wire.write(write);
  }

  @Override
  public void record(Effect.RecordEvent event) {
    if (closed() == null) {
      wire.record(event);
    }
  }

  @Override
  public Answer release(Effect.ReleaseGate release) {
    Answer.Refused closed = closed();
    return closed != null ? closed : wire.release(release);
  }

  @Override
  public TrialVerdict tryCredential(Effect.TryCredential trial) {
    Answer.Refused closed = closed();
    return closed != null
        ? TrialVerdict.unreachable("not tried: " + closed.message())
        : wire.tryCredential(trial);
  }

  @Override
  public Answer store(Effect.StoreProviderCredential store) {
    Answer.Refused closed = closed();
    return closed != null ? closed : wire.store(store);
  }

  private Answer.Refused closed() {
    Answer.Refused refusal = refusal();
    if (refusal != null) {
      synchronized (this) {
        stopped++;
      }
    }
    return refusal;
  }
}
