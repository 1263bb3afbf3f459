package io.kuik.sim.chart.helm;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Renders of the chart, one per value set, shared by the tests of a run: each render generates a CA
 * and a certificate, so rendering once per value set keeps the suite quick. Every render is read
 * strictly into its Kubernetes types first ({@link StrictManifests}), so every value set any test
 * renders also checks that the templates write only fields their types have.
 */
final class Renders {

  private static final Map<ValueSet, RenderedManifests> CACHE = new ConcurrentHashMap<>();

  private Renders() {}

  /** {@code helm template} with these values, parsed; fails if Helm fails. */
  static RenderedManifests of(ValueSet values) {
    return CACHE.computeIfAbsent(values, Renders::renderStrictly);
  }

  private static final Map<ValueSet, RenderedManifests> WITH_HOOKS = new ConcurrentHashMap<>();

  /**
   * {@link #of}, the chart's hooks included ({@link Helm#templateWithHooks}: their {@code
   * helm.sh/hook} annotation is named {@link Helm#HOOK_STAND_IN}).
   */
  static RenderedManifests withHooks(ValueSet values) {
    return WITH_HOOKS.computeIfAbsent(
        values,
        v -> {
          RenderedManifests manifests = RenderedManifests.parse(Helm.templateWithHooks(v).orFail());
          manifests.all().forEach(StrictManifests::read);
          return manifests;
        });
  }

  private static RenderedManifests renderStrictly(ValueSet values) {
    RenderedManifests manifests = RenderedManifests.parse(Helm.template(values).orFail());
    manifests.all().forEach(StrictManifests::read);
    return manifests;
  }
}
