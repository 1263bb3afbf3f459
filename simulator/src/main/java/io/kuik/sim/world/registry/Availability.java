package io.kuik.sim.world.registry;

/**
 * How a registry answered a pull or a probe, with the names the kuik spec gives probe outcomes
 * (Available, NotFound, Unauthorized, Unreachable).
 */
public enum Availability {
  /** The manifest exists and the request was allowed to read it. */
  AVAILABLE("Available"),
  /** The registry answered, but has no such repository, tag or digest (404). */
  NOT_FOUND("NotFound"),
  /** The registry refused the credential, or wanted one and got none (401). */
  UNAUTHORIZED("Unauthorized"),
  /** No answer: an unknown host, or a registry that is down. */
  UNREACHABLE("Unreachable");

  private final String specName;

  Availability(String specName) {
    this.specName = specName;
  }

  /** The outcome as the kuik spec writes it, e.g. {@code NotFound}. */
  public String specName() {
    return specName;
  }
}
