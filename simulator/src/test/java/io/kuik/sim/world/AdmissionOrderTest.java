package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static io.kuik.sim.world.Fixture.SYNCER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.trace.Note;
import io.kuik.sim.world.api.Authorizer;
import io.kuik.sim.world.api.MutatingAdmission;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.ValidatingAdmission;
import io.kuik.sim.world.api.Verb;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The request pipeline runs its stages in the API server's order. */
class AdmissionOrderTest {

  private final Fixture f = new Fixture();

  AdmissionOrderTest() {
    f.namespace("team-a");
  }

  private static final ValidatingAdmission REFUSE_RESERVED =
      request ->
          request.object() != null && Meta.name(request.object()).startsWith("kuik-inject-")
              ? ValidatingAdmission.Verdict.refuse(
                  "ValidatingAdmissionPolicy 'kuik' with binding 'kuik' denied request: reserved")
              : ValidatingAdmission.Verdict.ADMIT;

  @Test
  void aCreateRefusedByValidatingAdmissionFailsOnThePolicyEvenIfTheNameExists() {
    f.api.create(ADMIN, Fixture.opaque("team-a", "kuik-inject-x", "k", "v"));
    f.api.setValidatingAdmission(REFUSE_RESERVED);
    ApiException e =
        assertThrows(
            ApiException.class,
            () -> f.api.create(ADMIN, Fixture.opaque("team-a", "kuik-inject-x", "k", "v")));
    assertEquals(422, e.code());
    assertEquals(
        "secrets \"kuik-inject-x\" is forbidden: ValidatingAdmissionPolicy 'kuik' with binding"
            + " 'kuik' denied request: reserved",
        e.getMessage());
  }

  @Test
  void validatingAdmissionSeesNoOldObjectOnCreateAndTheStoredOneOnUpdate() {
    List<String> seen = new ArrayList<>();
    f.api.setValidatingAdmission(
        r -> {
          seen.add(r.operation() + " old=" + (r.oldObject() != null));
          return ValidatingAdmission.Verdict.ADMIT;
        });
    ObjectNode s = f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "v"));
    f.api.update(ADMIN, s);
    f.api.delete(ADMIN, ResourceType.SECRET, "team-a", "s");
    assertEquals(List.of("CREATE old=false", "UPDATE old=true", "DELETE old=true"), seen);
  }

  @Test
  void aStaleUpdateFailsOnConflictBeforeValidationAndValidatingAdmission() {
    ObjectNode v1 = f.api.create(ADMIN, Fixture.opaque("team-a", "kuik-inject-x", "k", "v"));
    f.api.update(ADMIN, v1.deepCopy());
    f.api.rotateEncryptionKey();
    f.api.update(ADMIN, v1.deepCopy()); // v1 is now stale
    f.api.setValidatingAdmission(REFUSE_RESERVED);
    v1.put("type", "kubernetes.io/tls"); // invalid too
    assertEquals(409, assertThrows(ApiException.class, () -> f.api.update(ADMIN, v1)).code());
  }

  @Test
  void authorizationComesFirstWithTheServersForbiddenMessage() {
    f.api.setAuthorizer(
        r ->
            r.verb() == Verb.GET
                ? Authorizer.Decision.deny("")
                : Authorizer.Decision.allow("test"));
    ApiException e =
        assertThrows(
            ApiException.class, () -> f.api.get(SYNCER, ResourceType.SECRET, "team-a", "x"));
    assertEquals(403, e.code());
    assertEquals(
        "secrets \"x\" is forbidden: User \"system:serviceaccount:kuik-system:kuik-secret-syncer\""
            + " cannot get resource \"secrets\" in API group \"\" in the namespace \"team-a\"",
        e.getMessage());
    f.api.setAuthorizer(r -> Authorizer.Decision.deny(""));
    ApiException list =
        assertThrows(ApiException.class, () -> f.api.list(SYNCER, ResourceType.IMAGE_MIRROR, null));
    assertEquals(
        "imagemirrors.kuik.enix.io is forbidden: User"
            + " \"system:serviceaccount:kuik-system:kuik-secret-syncer\" cannot list resource"
            + " \"imagemirrors\" in API group \"kuik.enix.io\" at the cluster scope",
        list.getMessage());
  }

  @Test
  void aMutatingWebhookChangesTheObjectBeforeValidation() {
    f.api
        .mutatingAdmission()
        .register(
            new MutatingAdmission(
                "pods.kuik.enix.io",
                Set.of(ResourceType.POD),
                Set.of(Operation.CREATE),
                MutatingAdmission.FailurePolicy.IGNORE,
                Duration.ofSeconds(2),
                r -> {
                  ObjectNode pod = r.object();
                  pod.withObjectProperty("metadata")
                      .putObject("annotations")
                      .put("kuik.enix.io/reason", "test");
                  return MutatingAdmission.Response.patch(pod);
                }));
    ObjectNode pod = f.api.create(ADMIN, Fixture.pod("team-a", "p"));
    assertEquals("test", Meta.annotations(pod).get("kuik.enix.io/reason"));
  }

  @Test
  void aWebhookThatIsDownFollowsItsFailurePolicy() {
    f.api
        .mutatingAdmission()
        .register(webhook(MutatingAdmission.FailurePolicy.IGNORE, Duration.ZERO));
    f.api.mutatingAdmission().markDown("pods.kuik.enix.io", true);
    f.api.create(ADMIN, Fixture.pod("team-a", "ignored"));
    assertTrue(f.trace.records().stream().anyMatch(r -> r instanceof Note.FailedOpen));

    f.api
        .mutatingAdmission()
        .register(webhook(MutatingAdmission.FailurePolicy.FAIL, Duration.ZERO));
    ApiException e =
        assertThrows(
            ApiException.class, () -> f.api.create(ADMIN, Fixture.pod("team-a", "failed")));
    assertEquals(500, e.code());
    assertTrue(
        e.getMessage().contains("failed calling webhook \"pods.kuik.enix.io\""), e.getMessage());
  }

  @Test
  void aWebhookSlowerThanItsTimeoutHasFailed() {
    f.api
        .mutatingAdmission()
        .register(webhook(MutatingAdmission.FailurePolicy.FAIL, Duration.ofSeconds(3)));
    ApiException e =
        assertThrows(ApiException.class, () -> f.api.create(ADMIN, Fixture.pod("team-a", "slow")));
    assertTrue(e.getMessage().endsWith("context deadline exceeded"), e.getMessage());
  }

  @Test
  void requestFaultsComeBeforeEverything() {
    f.api.faults().failNext(r -> r.verb() == Verb.PATCH, 1, StatusReason.TOO_MANY_REQUESTS);
    ObjectNode s = Fixture.opaque("team-a", "s", "k", "v");
    ApiException e = assertThrows(ApiException.class, () -> f.api.apply(SYNCER, s, "m", true));
    assertEquals(429, e.code());
    f.api.apply(SYNCER, s, "m", true);
  }

  private static MutatingAdmission webhook(
      MutatingAdmission.FailurePolicy policy, Duration latency) {
    return new MutatingAdmission(
        "pods.kuik.enix.io",
        Set.of(ResourceType.POD),
        Set.of(Operation.CREATE),
        policy,
        Duration.ofSeconds(2),
        r -> MutatingAdmission.Response.allow().withLatency(latency));
  }
}
