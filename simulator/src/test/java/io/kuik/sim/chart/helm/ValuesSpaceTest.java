package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart over its values space (issue 33): for every value set of {@link ValuesSpace}, each name
 * a process is told (flags, URLs, RBAC resourceNames, Leases) names an object the render creates or
 * that the process creates itself ({@link ToldNames}); and two releases side by side share no
 * object and no Lease. On the chart of 30c69b2 this failed for fullnameOverride (the syncer told
 * and granted kuik-pull-secrets while render created acme-pull-secrets), for two releases in one
 * namespace (one Lease kuik-secret-syncer), for global.* (ignored) and for the namespaces kuik
 * serves (only the webhook configuration knew them).
 */
class ValuesSpaceTest {

  static List<ValueSet> valueSets() {
    return ValuesSpace.all();
  }

  static List<ValuesSpace.SideBySide> pairs() {
    return ValuesSpace.sideBySide();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void everyNameAProcessIsToldIsAnObjectOfTheRenderOrOneItMakes(ValueSet values) {
    List<String> problems = ToldNames.problems(Renders.withHooks(values), values);

    assertEquals(List.of(), problems, "helm template " + values.release() + values.flags());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pairs")
  void twoReleasesSideBySideShareNoObjectAndNoLease(ValuesSpace.SideBySide pair) {
    RenderedManifests first = Renders.withHooks(pair.first());
    RenderedManifests second = Renders.withHooks(pair.second());

    List<String> problems = new ArrayList<>(ToldNames.clashes(first, second));
    ToldNames.problems(first, pair.first()).forEach(p -> problems.add(pair.first() + ": " + p));
    ToldNames.problems(second, pair.second()).forEach(p -> problems.add(pair.second() + ": " + p));

    assertEquals(List.of(), problems);
  }

  @Test
  void theSpaceTurnsEveryAxis() {
    StringBuilder all = new StringBuilder();
    ValuesSpace.all().forEach(v -> all.append(v.sets()));
    ValuesSpace.sideBySide().forEach(p -> all.append(p.first().sets()).append(p.second().sets()));
    for (String axis :
        List.of(
            "fullnameOverride",
            "nameOverride",
            "pullSecretFirst.enabled=true",
            "certManager.enabled=true",
            "webhook.tls.secretName",
            "syncer.peers",
            "webhook.excludedNamespaces",
            "syncer.namespacesByDefault=false",
            "networkPolicy.enabled=true",
            "metrics.serviceMonitor.enabled=true",
            "metrics.service.enabled=false",
            "selftest.enabled=false",
            "selftest.podCheck.namespace",
            "serviceAccount.create=false",
            "leaderElection.enabled=false",
            "global.")) {
      assertTrue(all.toString().contains(axis), axis + " is turned by some value set");
    }
  }
}
