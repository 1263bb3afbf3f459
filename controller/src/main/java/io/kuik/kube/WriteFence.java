package io.kuik.kube;

/**
 * Whether this process may write now. Closed until the process leads (or at once without leader
 * election), and closed again the moment it stops leading, before anything else happens: a deposed
 * leader must never send another apply, even one already queued on the core's thread.
 */
final class WriteFence {

  private volatile boolean open;

  void open() {
    open = true;
  }

  void close() {
    open = false;
  }

  boolean isOpen() {
    return open;
  }
}
