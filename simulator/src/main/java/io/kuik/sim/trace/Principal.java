package io.kuik.sim.trace;

/**
 * An authenticated user as the trace needs it: only its user name, which {@link Trace#actorOf}
 * turns into an {@link Actor}. The API server's identities implement it, so the trace knows nothing
 * of the world above it.
 */
public interface Principal {

  /** The user name, e.g. {@code system:serviceaccount:kuik-system:kuik-secret-syncer}. */
  String user();
}
