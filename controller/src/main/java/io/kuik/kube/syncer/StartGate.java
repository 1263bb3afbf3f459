package io.kuik.kube.syncer;

/**
 * Starts the core once both conditions hold, whichever comes last: the informers have synced, and
 * this process may write (it holds the lease, or there is no election).
 */
final class StartGate {

  private final Runnable start;
  private boolean synced;
  private boolean leading;
  private boolean started;

  StartGate(Runnable start) {
    this.start = start;
  }

  void synced() {
    fire(true, false);
  }

  void leading() {
    fire(false, true);
  }

  private void fire(boolean nowSynced, boolean nowLeading) {
    synchronized (this) {
      synced |= nowSynced;
      leading |= nowLeading;
      if (started || !synced || !leading) {
        return;
      }
      started = true;
    }
    start.run();
  }
}
