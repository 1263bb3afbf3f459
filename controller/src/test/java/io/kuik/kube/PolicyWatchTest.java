package io.kuik.kube;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.kuik.LogLines;
import io.kuik.model.WriteBounds;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The watch of the policy that bounds a process's writes, on the mock API server: each change of
 * the decision told once, with the log line an operator reads (docs/operations.md#logs), and a
 * watch that may not list holding every write with the reason.
 */
class PolicyWatchTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);

  /** The watch's delivery, and room for a busy machine. */
  private static final Duration QUIET = Duration.ofSeconds(2);

  private static final WriteBounds.Policy CHART =
      new WriteBounds.Policy(MockCluster.RELEASE + "-pull-secrets", "kuik-pull-secrets");

  private final LogLines log = LogLines.of(PolicyWatch.class);

  /** fabric8's own ERROR for an informer that may not list, kept out of the build's output. */
  private final LogLines fabric8 =
      LogLines.of(io.fabric8.kubernetes.client.informers.impl.cache.Reflector.class);

  private final List<WriteBounds> changes = new CopyOnWriteArrayList<>();
  private MockCluster cluster;
  private KubernetesClient account;
  private PolicyWatch watch;

  @AfterEach
  void stop() {
    if (watch != null) {
      watch.close();
    }
    if (account != null) {
      account.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    log.close();
    fabric8.close();
  }

  private PolicyWatch watch(WriteBounds.Policy... policies) {
    // The process's own identity: the kubeconfig the cluster wrote, with the account's token.
    account = new KubernetesClientBuilder().build();
    watch = new PolicyWatch(account, List.of(policies), "the syncer writes", changes::add);
    return watch;
  }

  private void awaitChanges(int count) {
    await(count + " decisions").atMost(PATIENCE).until(() -> changes.size() >= count);
  }

  private List<String> said() {
    return log.all().stream().filter(line -> line.contains("writes ")).toList();
  }

  @Test
  void beforeItListsNothingIsWrittenAndTheReasonNamesThePolicy() {
    cluster = new MockCluster();
    PolicyWatch watch = watch(CHART);

    assertFalse(watch.bounds().inPlace());
    assertEquals(
        "the admission policy kuik-pull-secrets and its binding: not listed yet",
        watch.bounds().why());
    assertEquals(List.of(), changes, "nothing told before the start");
  }

  @Test
  void eachChangeIsToldOnceWithItsOwnWords() throws Exception {
    cluster = new MockCluster();
    watch(CHART).start();
    awaitChanges(1);
    assertTrue(changes.get(0).inPlace(), changes.toString());
    assertEquals(
        List.of(
            "INFO writes allowed: the ValidatingAdmissionPolicy kuik-pull-secrets and its binding"
                + " are in place"),
        said());

    cluster.deleteAdmissionPolicyBinding();
    awaitChanges(2);
    assertFalse(watch.bounds().inPlace());
    assertEquals(
        "WARNING writes stopped: the ValidatingAdmissionPolicyBinding kuik-pull-secrets does not"
            + " exist; the syncer writes nothing until the policy that bounds it is in place"
            + " (/readyz fails meanwhile)",
        said().get(1));

    // Held already: another reason is a hold, not a stop.
    cluster.deleteAdmissionPolicy();
    awaitChanges(3);
    assertTrue(
        said().get(2).startsWith("WARNING writes held: the ValidatingAdmissionPolicy"),
        said().toString());

    cluster.installAdmissionPolicy();
    await("in place again").atMost(PATIENCE).until(() -> watch.bounds().inPlace());
    assertTrue(
        said().get(said().size() - 1).startsWith("INFO writes resumed: "), said().toString());

    // A change that decides the same: nothing told.
    int told = changes.size();
    cluster
        .client()
        .admissionRegistration()
        .v1()
        .validatingAdmissionPolicies()
        .withName(CHART.policy())
        .edit(p -> relabelled(p));
    Thread.sleep(QUIET.toMillis());
    assertEquals(told, changes.size(), changes.toString());
    assertEquals(told, said().size(), said().toString());
  }

  @Test
  void aBindingChangedInPlaceIsDecidedAgain() {
    cluster = new MockCluster();
    watch(CHART).start();
    awaitChanges(1);

    cluster
        .client()
        .admissionRegistration()
        .v1()
        .validatingAdmissionPolicyBindings()
        .withName(CHART.binding())
        .edit(b -> warnOnly(b));
    awaitChanges(2);
    assertEquals(
        "the ValidatingAdmissionPolicyBinding kuik-pull-secrets only Warns: it must Deny",
        watch.bounds().why());
  }

  @Test
  void startedBeforeThePolicyItHoldsFromTheFirstDecision() {
    cluster = MockCluster.withoutAdmissionPolicy();
    watch(CHART).start();
    awaitChanges(1);
    assertEquals(
        List.of(
            "WARNING writes held: the ValidatingAdmissionPolicy kuik-pull-secrets does not exist;"
                + " the syncer writes nothing until the policy that bounds it is in place (/readyz"
                + " fails meanwhile)"),
        said());

    cluster.installAdmissionPolicy();
    awaitChanges(2);
    assertTrue(watch.bounds().inPlace());
  }

  @Test
  void namesRbacDoesNotGrantAreAHoldThatSaysWhatToGrant() {
    cluster = MockCluster.underSyncerRbac();
    watch(new WriteBounds.Policy("someone-elses", "someone-elses")).start();
    awaitChanges(1);

    assertFalse(watch.bounds().inPlace());
    assertEquals(
        "the admission policy someone-elses and its binding could not be listed and watched"
            + " (403): RBAC must grant list and watch on these names",
        watch.bounds().why());
    assertTrue(said().get(0).startsWith("WARNING writes held: the admission policy someone-elses"));
  }

  @Test
  void anApiServerWithoutThePolicyApiIsAHoldWithItsAnswer() {
    cluster =
        MockCluster.underChartRbac(
            "files/syncer-rbac.yaml", "secret-syncer", "", PolicyWatchTest::withoutPolicyApi);
    watch(CHART).start();
    awaitChanges(1);

    String why = watch.bounds().why();
    assertFalse(watch.bounds().inPlace());
    assertTrue(
        why.startsWith(
            "the admission policy kuik-pull-secrets and its binding could not be listed and"
                + " watched: "),
        why);
    assertTrue(why.contains("404"), why);
    assertFalse(why.contains("RBAC"), "not a matter of RBAC: " + why);
  }

  @Test
  void closedItWatchesNoMore() throws Exception {
    cluster = new MockCluster();
    watch(CHART).start();
    awaitChanges(1);

    watch.close();
    cluster.deleteAdmissionPolicyBinding();
    cluster.deleteAdmissionPolicy();
    Thread.sleep(QUIET.toMillis());
    assertEquals(1, changes.size(), changes.toString());
    assertTrue(watch.bounds().inPlace());
  }

  private static ValidatingAdmissionPolicy relabelled(ValidatingAdmissionPolicy policy) {
    policy.getMetadata().setLabels(java.util.Map.of("touched", "yes"));
    return policy;
  }

  private static ValidatingAdmissionPolicyBinding warnOnly(ValidatingAdmissionPolicyBinding b) {
    b.getSpec().setValidationActions(List.of("Warn"));
    return b;
  }

  /** An API server older than ValidatingAdmissionPolicy v1 (Kubernetes 1.30): 404 for its kinds. */
  private static Dispatcher withoutPolicyApi(Dispatcher crud) {
    return new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        if (request.getPath().startsWith("/apis/admissionregistration.k8s.io/")) {
          return new MockResponse()
              .setResponseCode(404)
              .setBody(
                  "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":"
                      + "\"the server could not find the requested resource\",\"reason\":"
                      + "\"NotFound\",\"code\":404}");
        }
        return crud.dispatch(request);
      }
    };
  }
}
