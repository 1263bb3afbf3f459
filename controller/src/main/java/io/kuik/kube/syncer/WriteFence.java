package io.kuik.kube.syncer;

import io.kuik.syncer.Answer.Refused;

/**
 * Whether this process may write now. Closed until the process leads (or at once without leader
 * election), and closed again the moment it stops leading, before anything else happens: a deposed
 * leader must never send another apply, even one already queued on the core's thread.
 *
 * <p>A closed fence says why, so that a write it stops is reported truthfully: {@code NotLeader}
 * only when the lease is the reason, {@code ShuttingDown} when the process is stopping (the only
 * reason there is without leader election).
 */
final class WriteFence {

  private static final Refused NOT_LEADER =
      new Refused(0, "NotLeader", "this instance does not hold the lease; nothing was sent");
  private static final Refused SHUTTING_DOWN =
      new Refused(0, "ShuttingDown", "the syncer is stopping; nothing was sent");

  private volatile Refused closedAs = NOT_LEADER;

  void open() {
    closedAs = null;
  }

  /** The lease is lost (or was never held). */
  void close() {
    closedAs = NOT_LEADER;
  }

  /** The process is stopping: nothing more is written, whoever holds the lease. */
  void closeForShutdown() {
    closedAs = SHUTTING_DOWN;
  }

  boolean isOpen() {
    return closedAs == null;
  }

  /** Why a write is not sent now; null while the fence is open. */
  Refused refusal() {
    return closedAs;
  }
}
