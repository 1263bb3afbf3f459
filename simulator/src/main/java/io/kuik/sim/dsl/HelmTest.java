package io.kuik.sim.dsl;

import io.kuik.selftest.SelftestCluster.Readyz;
import io.kuik.selftest.SelftestReport;
import io.kuik.selftest.SelftestSettings;
import io.kuik.sim.Cluster;
import io.kuik.sim.chart.Release;
import io.kuik.sim.chart.RenderedRelease;
import io.kuik.sim.hosts.SelftestPod;
import io.kuik.sim.hosts.SimulatedSelftestCluster;
import io.kuik.sim.hosts.SyncerHost;
import io.kuik.sim.hosts.Told;
import io.kuik.sim.hosts.WebhookHost;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code helm test} of a release, as Helm runs the chart's test hooks: what Helm renders for the
 * release's values (the pod check's included), the hooks but the pod created, the production
 * selftest run under the pod's ServiceAccount with the pod's own command line, then every hook
 * deleted, passed or failed (hook-delete-policy before-hook-creation,hook-succeeded,hook-failed).
 */
final class HelmTest {

  private HelmTest() {}

  static SelftestReport run(
      KuikWorld world,
      Release installed,
      SelftestSettings.PodCheck podCheck,
      SyncerHost syncer,
      WebhookHost webhook) {
    Release tested =
        podCheck == null
            ? installed
            : installed.withValues(
                "selftest.podCheck.namespace=" + podCheck.namespace(),
                "selftest.podCheck.image=" + podCheck.image());
    RenderedRelease rendered = world.cluster().chart().render(tested);
    ObjectNode pod = rendered.runner("selftest").orElseThrow();
    String namespace = installed.namespace();
    Identity test =
        Identity.serviceAccountInPod(
            namespace,
            pod.path("spec").path("serviceAccountName").asString(),
            Meta.name(pod),
            "pod-uid-" + Meta.name(pod));
    world.cluster().trace().alias(test, "selftest");
    List<ObjectNode> hooks =
        rendered.hooks().stream().filter(h -> !"Pod".equals(Json.text(h, "kind"))).toList();
    List<ObjectNode> created = new ArrayList<>();
    try {
      for (ObjectNode hook : hooks) {
        created.add(world.api().create(Cluster.ADMIN, hook));
      }
      SelftestSettings settings = Told.selftest(rendered.args("selftest"));
      return SelftestPod.run(
          world.api(),
          test,
          settings,
          readyzByService(rendered, settings, syncer, webhook),
          Map.of(
              settings.syncerDeployment(),
              SimulatedSelftestCluster.readyz(syncer),
              settings.webhookDeployment(),
              SimulatedSelftestCluster.readyz(webhook)));
    } finally {
      for (int i = created.size() - 1; i >= 0; i--) {
        ObjectNode hook = created.get(i);
        try {
          world
              .api()
              .delete(
                  Cluster.ADMIN,
                  ResourceType.ofKind(
                          hook.path("apiVersion").asString(), hook.path("kind").asString())
                      .orElseThrow(),
                  Meta.namespace(hook),
                  Meta.name(hook));
        } catch (ApiException gone) {
          // Helm ignores a hook that is already gone when it deletes it.
        }
      }
    }
  }

  /**
   * Each /readyz URL the selftest is told, answered by the component whose pods the named Service
   * of the render selects (its {@code app.kubernetes.io/component}); a URL naming no Service of the
   * render answers nothing, as on a cluster.
   */
  private static Map<String, Supplier<Readyz>> readyzByService(
      RenderedRelease rendered, SelftestSettings settings, SyncerHost syncer, WebhookHost webhook) {
    Map<String, Supplier<Readyz>> services = new LinkedHashMap<>();
    for (java.net.URI url :
        java.util.Arrays.asList(settings.syncerReadyz(), settings.webhookReadyz())) {
      if (url == null) {
        continue;
      }
      String[] host = url.getHost().split("[.]");
      rendered
          .find("Service", host[0])
          .filter(service -> host.length > 1 && host[1].equals(Meta.namespace(service)))
          .map(
              service ->
                  service
                      .path("spec")
                      .path("selector")
                      .path("app.kubernetes.io/component")
                      .asString(""))
          .ifPresent(
              component -> {
                if (component.equals("secret-syncer")) {
                  services.put(url.getHost(), SimulatedSelftestCluster.readyz(syncer));
                } else if (component.equals("webhook")) {
                  services.put(url.getHost(), SimulatedSelftestCluster.readyz(webhook));
                }
              });
    }
    return services;
  }
}
