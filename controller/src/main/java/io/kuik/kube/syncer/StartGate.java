package io.kuik.kube.syncer;

/**
 * Starts the core once all three conditions hold, whichever comes last: the informers have synced,
 * this process may write (it holds the lease, or there is no election), and the admission policy
 * that bounds its writes is in place with its binding.
 */
final class StartGate {

  private final Runnable start;
  private boolean synced;
  private boolean leading;
  private boolean bounded;
  private boolean started;

  StartGate(Runnable start) {
    this.start = start;
  }

  void synced() {
    fire(true, false, false);
  }

  void leading() {
    fire(false, true, false);
  }

  void bounded() {
    fire(false, false, true);
  }

  private void fire(boolean nowSynced, boolean nowLeading, boolean nowBounded) {
    synchronized (this) {
      synced |= nowSynced;
      leading |= nowLeading;
      bounded |= nowBounded;
      if (started || !synced || !leading || !bounded) {
        return;
      }
      started = true;
    }
    start.run();
  }
}
