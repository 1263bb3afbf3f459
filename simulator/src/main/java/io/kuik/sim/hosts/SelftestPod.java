package io.kuik.sim.hosts;

import io.kuik.selftest.Selftest;
import io.kuik.selftest.SelftestCluster.Readyz;
import io.kuik.selftest.SelftestReport;
import io.kuik.selftest.SelftestSettings;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The chart's {@code helm test} pod: the production {@link Selftest} under the test's own
 * ServiceAccount, asking the simulated API server and the components' Services. It runs to its end
 * in one step of the event loop, as the checks take no virtual time.
 */
public final class SelftestPod {

  private SelftestPod() {}

  /**
   * @param services each Service's DNS name and what its component's {@code /readyz} answers now
   * @param pods each Deployment's name and what its one pod's {@code /readyz} answers now
   */
  public static SelftestReport run(
      ApiServer api,
      Identity identity,
      SelftestSettings settings,
      Map<String, Supplier<Readyz>> services,
      Map<String, Supplier<Readyz>> pods) {
    return Selftest.run(new SimulatedSelftestCluster(api, identity, services, pods), settings);
  }
}
