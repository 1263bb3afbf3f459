package io.kuik.sim.world.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.ValidatingAdmission.Verdict;
import io.kuik.sim.world.api.Verb;
import io.kuik.sim.world.object.Json;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * The policy that keeps the selftest's identity to dry runs (chart/files/selftest-policy.yaml), as
 * the simulated API server evaluates it with {@code request.dryRun} as upstream builds it: its RBAC
 * lets it create Secrets and pods, because a dry run needs the same grant as a write, and this
 * policy refuses it every request that is not a dry run, whatever the name; anyone else is not its
 * business.
 */
class SelftestPolicyTest {

  private static final Release RELEASE = Release.DEFAULT;
  private static final Identity SELFTEST =
      Identity.serviceAccountInPod("kuik-system", "kuik-selftest", "kuik-selftest", "uid-1");
  private static final Identity TENANT = Identity.person("alice", "team-a-devs");

  private static final PolicyAdmission ADMISSION =
      new PolicyAdmission(
          new InMemoryClusterState()
              .putAll(ChartFiles.locate().load(ChartFiles.SELFTEST_POLICY, RELEASE)));

  private static AdmissionRequest create(Identity who, ResourceType type, boolean dryRun) {
    String namespace = type.equals(ResourceType.POD) ? "team-a" : "kuik-system";
    ObjectNode object = Json.object();
    object.put("apiVersion", "v1");
    object.put("kind", type.kind());
    object.putObject("metadata").put("name", "kuik-selftest").put("namespace", namespace);
    return new AdmissionRequest(
        new RequestAttributes(who, Verb.CREATE, type, namespace, "kuik-selftest", null),
        Operation.CREATE,
        object,
        null,
        dryRun);
  }

  @ParameterizedTest(name = "{0} creates a {1}, dry run {2}: admitted {3}")
  @CsvSource({
    "selftest, Secret, true, true",
    "selftest, Secret, false, false",
    "selftest, Pod, true, true",
    "selftest, Pod, false, false",
    "tenant, Secret, false, true",
    "tenant, Pod, false, true"
  })
  void theSelftestsIdentitySendsDryRunsOnly(
      String who, String kind, boolean dryRun, boolean admitted) {
    Identity identity = who.equals("selftest") ? SELFTEST : TENANT;
    ResourceType type = kind.equals("Pod") ? ResourceType.POD : ResourceType.SECRET;

    Verdict verdict = ADMISSION.validate(create(identity, type, dryRun));

    assertEquals(admitted, verdict.admitted(), String.valueOf(verdict));
    if (!admitted) {
      assertTrue(
          verdict.toString().contains("sends dry runs only (kuik selftest)"), verdict.toString());
    }
  }

  @ParameterizedTest(name = "the policy and its binding are named {0}")
  @CsvSource({"kuik-selftest-dry-run"})
  void thePolicyIsNamedAfterTheReleaseAndBindsWithDeny(String name) {
    List<ObjectNode> objects = ChartFiles.locate().load(ChartFiles.SELFTEST_POLICY, RELEASE);

    assertEquals(name, objects.get(0).at("/metadata/name").asString());
    assertEquals(name, objects.get(1).at("/spec/policyName").asString());
    assertEquals("Deny", objects.get(1).at("/spec/validationActions/0").asString());
  }
}
