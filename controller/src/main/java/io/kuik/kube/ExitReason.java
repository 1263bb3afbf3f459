package io.kuik.kube;

/** Why the syncer process ends, and the exit code that tells Kubernetes. */
public enum ExitReason {
  /** SIGTERM or a stop request: a clean end. */
  SHUTDOWN(0, "stopped"),
  /**
   * The lease was lost (not renewed in time, or taken over): writing stopped at once, and the
   * process ends so that Kubernetes restarts it as a fresh standby with empty memory.
   */
  LOST_LEASE(1, "the lease was lost"),
  /** The informers could not start (RBAC, CRDs missing, API server unreachable). */
  STARTUP_FAILED(1, "the start failed");

  private final int exitCode;
  private final String words;

  ExitReason(int exitCode, String words) {
    this.exitCode = exitCode;
    this.words = words;
  }

  /** Why the process ends and its exit code, as the log says it ({@code stopped, exit code 0}). */
  public String describe() {
    return words + ", exit code " + exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
