package io.kuik.kube.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.MockCluster;
import io.kuik.kube.RbacDispatcher;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The webhook's informers under the chart's own RBAC for its ServiceAccount
 * (chart/files/webhook-rbac.yaml), on fabric8's mock API server: the grants are enough to start
 * (nothing refused), it reads Secrets in the install namespace only, writes nothing, and lists the
 * routing resources and namespaces in pages of 500.
 */
class WebhookUnderChartRbacTest {

  private final MockCluster cluster =
      MockCluster.underChartRbac("files/webhook-rbac.yaml", "webhook", "", crud -> crud);
  private final KubernetesClient webhookClient = new KubernetesClientBuilder().build();
  private WebhookInformers informers;

  @AfterEach
  void stop() {
    if (informers != null) {
      informers.close();
    }
    webhookClient.close();
    cluster.close();
  }

  @Test
  void theChartsGrantsAreEnoughAndEveryListIsPagedAndSecretsAreReadInTheInstallNamespaceOnly()
      throws Exception {
    informers = new WebhookInformers(webhookClient, ClusterFixtures.INSTALL_NAMESPACE);

    informers.start(new WebhookRouting()).get(30, TimeUnit.SECONDS);

    List<RbacDispatcher.Observed> requests = cluster.serviceAccountRequests();
    Set<String> listed = new TreeSet<>();
    for (RbacDispatcher.Observed r : requests) {
      assertTrue(r.code() < 400, "refused: " + r);
      assertTrue(Set.of("list", "watch").contains(r.verb()), "reads only: " + r);
      if (r.attributes().resource().equals("secrets")) {
        assertTrue(
            r.path().startsWith("/api/v1/namespaces/" + ClusterFixtures.INSTALL_NAMESPACE + "/"),
            "a Secret outside the install namespace: " + r);
      }
      if (r.verb().equals("list")) {
        listed.add(r.attributes().resource());
        if (!r.attributes().resource().equals("secrets")) {
          assertTrue(r.query().contains("limit=500"), "a page limit in list ?" + r.query());
        }
      }
    }
    assertEquals(Set.of("imagealternatives", "imagemirrors", "namespaces", "secrets"), listed);
  }
}
