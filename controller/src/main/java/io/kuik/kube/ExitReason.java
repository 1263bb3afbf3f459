package io.kuik.kube;

/** Why the syncer process ends, and the exit code that tells Kubernetes. */
public enum ExitReason {
  /** SIGTERM or a stop request: a clean end. */
  SHUTDOWN(0),
  /**
   * The lease was lost (not renewed in time, or taken over): writing stopped at once, and the
   * process ends so that Kubernetes restarts it as a fresh standby with empty memory.
   */
  LOST_LEASE(1),
  /** The informers could not start (RBAC, CRDs missing, API server unreachable). */
  STARTUP_FAILED(1);

  private final int exitCode;

  ExitReason(int exitCode) {
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
