package io.kuik.kube.syncer;

import io.kuik.syncer.Answer.Refused;

/**
 * Whether this process may write now. Closed until the process leads (or at once without leader
 * election), and closed again the moment it stops leading, before anything else happens: a deposed
 * leader must never send another apply, even one already queued on the core's thread. Closed too
 * while the admission policy that bounds the syncer's writes, or its binding, is missing ({@link
 * WriteBoundsCheck}): an apply already on its way when they go is not sent.
 *
 * <p>A closed fence says why, so that a write it stops is reported truthfully: {@code ShuttingDown}
 * when the process is stopping, {@code NotLeader} when the lease is the reason, {@code
 * NoAdmissionPolicy} when the policy is.
 */
final class WriteFence {

  private static final Refused NOT_LEADER =
      new Refused(0, "NotLeader", "this instance does not hold the lease; nothing was sent");
  private static final Refused SHUTTING_DOWN =
      new Refused(0, "ShuttingDown", "the syncer is stopping; nothing was sent");
  static final Refused NO_ADMISSION_POLICY =
      new Refused(
          0,
          "NoAdmissionPolicy",
          "the admission policy that bounds the syncer's writes, or its binding, is not in place;"
              + " nothing was sent");

  private volatile boolean leading;
  private volatile boolean bounded = true;
  private volatile boolean stopping;

  /** This process leads (or there is no election). */
  void open() {
    leading = true;
  }

  /** The lease is lost (or was never held). */
  void close() {
    leading = false;
  }

  /** Whether the admission policy and its binding are in place. */
  void bounded(boolean inPlace) {
    bounded = inPlace;
  }

  /** The process is stopping: nothing more is written, whoever holds the lease. */
  void closeForShutdown() {
    stopping = true;
  }

  boolean isOpen() {
    return refusal() == null;
  }

  /** Why a write is not sent now; null while the fence is open. */
  Refused refusal() {
    if (stopping) {
      return SHUTTING_DOWN;
    }
    if (!leading) {
      return NOT_LEADER;
    }
    return bounded ? null : NO_ADMISSION_POLICY;
  }
}
