package io.kuik.sim.faults;

import io.kuik.sim.world.registry.Registries;
import java.util.Objects;

/**
 * Registries out of reach. Fault model: a registry host stops answering (a network partition, the
 * registry's own outage), so that every pull and probe of it is Unreachable until it is back;
 * nothing stored in it is lost. kuik's webhook must fail open to another candidate or leave the pod
 * alone, the kubelet retries with back-off, and the syncer keeps every credential in place: a
 * registry outage is no reason to release one. Each edge is noted in the trace by the registry.
 */
public final class RegistryOutages {

  private final Registries registries;

  public RegistryOutages(Registries registries) {
    this.registries = Objects.requireNonNull(registries, "registries");
  }

  /** Down from now until {@link #up}. */
  public void down(String host) {
    registries.registry(host).down();
  }

  /** Back now, ending any outage of the host. */
  public void up(String host) {
    registries.registry(host).up();
  }
}
