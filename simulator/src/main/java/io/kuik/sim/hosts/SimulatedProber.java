package io.kuik.sim.hosts;

import io.kuik.ports.RegistryProber;
import io.kuik.sim.world.registry.Registries;
import java.util.ArrayList;
import java.util.List;

/**
 * The webhook's prober in the simulated cluster: asks the fake registries, in list order, and stops
 * at the first available candidate (the production prober probes concurrently but answers the same
 * prefix). Outages of a registry therefore decide the rewrites.
 */
final class SimulatedProber implements RegistryProber {

  private final Registries registries;

  SimulatedProber(Registries registries) {
    this.registries = registries;
  }

  @Override
  public List<RegistryProber.Availability> probe(List<Probe> candidates) {
    List<RegistryProber.Availability> answers = new ArrayList<>();
    for (Probe candidate : candidates) {
      RegistryProber.Availability answer =
          map(registries.probe(candidate.image(), candidate.credential()));
      answers.add(answer);
      if (answer == RegistryProber.Availability.AVAILABLE) {
        break;
      }
    }
    return answers;
  }

  private static RegistryProber.Availability map(
      io.kuik.sim.world.registry.Availability availability) {
    return RegistryProber.Availability.valueOf(availability.name());
  }
}
