package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.trace.Answer;
import io.kuik.sim.trace.Stage;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.admission.PolicyAdmission;
import io.kuik.sim.world.admission.RbacAuthorizer;
import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.MutatingAdmission;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.watch.WatchEvent;
import io.kuik.sim.world.watch.WatchHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A create sent with {@code dryRun=All}, as the Kubernetes API concepts define it
 * (https://kubernetes.io/docs/reference/using-api/api-concepts/#dry-run): authorized as the create
 * it stands for, run through mutating admission (the webhooks told it is a dry run), validation and
 * validating admission, checked against the store for an existing name, and then not stored: no
 * resourceVersion moves, no watch hears of it, and the answer is the object as it would have been.
 */
class DryRunTest {

  private final Fixture f = new Fixture();
  private final List<AdmissionRequest> webhookCalls = new ArrayList<>();

  DryRunTest() {
    f.namespace("team-a");
    f.api
        .mutatingAdmission()
        .register(
            new MutatingAdmission(
                "label-pods",
                Set.of(ResourceType.POD),
                Set.of(Operation.CREATE),
                MutatingAdmission.FailurePolicy.IGNORE,
                Duration.ofSeconds(3),
                request -> {
                  webhookCalls.add(request);
                  ObjectNode pod = request.object().deepCopy();
                  Json.child(Json.child(pod, "metadata"), "labels").put("routed", "yes");
                  return MutatingAdmission.Response.patch(pod);
                }));
  }

  @Test
  void aDryRunPodGoesThroughTheWebhookAndComesBackAsItWouldBeStoredWithoutBeingStored() {
    String before = f.api.list(ADMIN, ResourceType.POD, "team-a").resourceVersion();

    ObjectNode answer = f.api.createDryRun(ADMIN, Fixture.pod("team-a", "web"));

    assertEquals("yes", Meta.labels(answer).get("routed"), "the webhook's change is in the answer");
    assertEquals(1, webhookCalls.size());
    assertTrue(webhookCalls.get(0).dryRun(), "the webhook is told it is a dry run");
    assertFalse(Meta.uid(answer) == null || Meta.uid(answer).isEmpty(), "a uid, as if created");
    assertNull(Meta.resourceVersion(answer), "no resourceVersion: nothing was stored");
    assertEquals(before, f.api.list(ADMIN, ResourceType.POD, "team-a").resourceVersion());
    assertTrue(f.api.find(ADMIN, ResourceType.POD, "team-a", "web").isEmpty());
  }

  @Test
  void noWatchHearsOfADryRun() {
    List<String> seen = new ArrayList<>();
    f.api.watch(
        ADMIN,
        ResourceType.SECRET,
        "team-a",
        LabelSelector.EVERYTHING,
        "w",
        new WatchHandler() {
          @Override
          public void onEvent(WatchEvent event) {
            seen.add(event.type() + " " + Meta.name(event.object()));
          }

          @Override
          public void onExpired(String message) {}
        });

    f.api.createDryRun(ADMIN, Fixture.opaque("team-a", "dry", "k", "v"));
    f.api.create(ADMIN, Fixture.opaque("team-a", "real", "k", "v"));
    f.loop.runFor(Duration.ofSeconds(1));

    assertEquals(List.of("ADDED real"), seen);
  }

  @Test
  void aDryRunIsValidatedAndFindsAnExistingNameAsARealCreateWould() {
    ObjectNode invalid = Fixture.opaque("team-a", "Not_A_Name", "k", "v");
    ApiException refused =
        assertThrows(ApiException.class, () -> f.api.createDryRun(ADMIN, invalid));
    assertEquals(422, refused.code());

    f.api.create(ADMIN, Fixture.opaque("team-a", "taken", "k", "v"));
    ApiException exists =
        assertThrows(
            ApiException.class,
            () -> f.api.createDryRun(ADMIN, Fixture.opaque("team-a", "taken", "k", "v")));
    assertEquals(409, exists.code());
    assertEquals("AlreadyExists", exists.reason());
  }

  @Test
  void rbacAuthorizesADryRunAsTheCreateItStandsFor() {
    f.api.setAuthorizer(new RbacAuthorizer(f.api.state()));
    Identity stranger = Identity.serviceAccount("team-a", "default");

    ApiException refused =
        assertThrows(
            ApiException.class,
            () -> f.api.createDryRun(stranger, Fixture.opaque("team-a", "s", "k", "v")));

    assertEquals(403, refused.code());
    assertEquals(Stage.AUTHORIZATION, refused.stage());
  }

  @Test
  void aValidatingAdmissionPolicyRefusesADryRunWithItsOwnMessage() {
    f.api.setValidatingAdmission(new PolicyAdmission(f.api.state()));
    f.api.create(
        ADMIN,
        Json.yaml(
            """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: no-secrets}
            spec:
              matchConstraints:
                resourceRules:
                  - {apiGroups: [""], apiVersions: [v1], resources: [secrets], operations: [CREATE]}
              validations:
                - {expression: "false", message: no Secret here, reason: Forbidden}
            """));
    f.api.create(
        ADMIN,
        Json.yaml(
            """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: no-secrets}
            spec: {policyName: no-secrets, validationActions: [Deny]}
            """));

    ApiException refused =
        assertThrows(
            ApiException.class,
            () -> f.api.createDryRun(ADMIN, Fixture.opaque("team-a", "s", "k", "v")));

    assertEquals(403, refused.code());
    assertEquals(Stage.ADMISSION_POLICY, refused.stage());
    assertTrue(
        refused
            .getMessage()
            .contains(
                "ValidatingAdmissionPolicy 'no-secrets' with binding 'no-secrets' denied request:"
                    + " no Secret here"),
        refused.getMessage());
  }

  @Test
  void theTraceTellsADryRunFromAWrite() {
    f.api.createDryRun(ADMIN, Fixture.opaque("team-a", "dry", "k", "v"));

    TraceRecord.Request last = f.trace.requests().get(f.trace.requests().size() - 1);
    assertEquals(new Answer.DryRun(201), last.answer());
    assertFalse(last.changedSomething());
    assertEquals("201 dry run, nothing stored", last.answer().text());
  }
}
