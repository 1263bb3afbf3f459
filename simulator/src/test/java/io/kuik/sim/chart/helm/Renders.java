package io.kuik.sim.chart.helm;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Renders of the chart, one per value set, shared by the tests of a run: each render generates a CA
 * and a certificate, so rendering once per value set keeps the suite quick.
 */
final class Renders {

  private static final Map<ValueSet, Manifests> CACHE = new ConcurrentHashMap<>();

  private Renders() {}

  /** {@code helm template --include-crds} with these values, parsed; fails if helm fails. */
  static Manifests of(ValueSet values) {
    return CACHE.computeIfAbsent(
        values, v -> Manifests.parse(Helm.template(v, true).stdoutOrFail()));
  }
}
