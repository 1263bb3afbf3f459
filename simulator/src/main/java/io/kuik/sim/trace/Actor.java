package io.kuik.sim.trace;

import java.util.Objects;

/**
 * Who acted, as the trace's actor column names it: an alias given to an identity ({@code syncer},
 * {@code webhook}, {@code kubelet}), a ServiceAccount's name, a person's user name, a registry's
 * host, or {@link #FAULT}, the fault injector that opens and closes fault windows.
 */
public record Actor(String name) {

  /** The actor of every fault window's edges. */
  public static final Actor FAULT = new Actor("fault");

  public Actor {
    Objects.requireNonNull(name, "name");
  }

  @Override
  public String toString() {
    return name;
  }
}
