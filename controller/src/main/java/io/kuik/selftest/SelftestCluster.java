package io.kuik.selftest;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * What {@code kuik selftest} asks of the cluster: reads, and creates sent with {@code dryRun=All},
 * which the API server authorizes, admits and validates as a real create and then does not store
 * (https://kubernetes.io/docs/reference/using-api/api-concepts/#dry-run). The production driver
 * speaks to the API server through fabric8 ({@link FabricSelftestCluster}); the simulator answers
 * from its own API server, under the test's ServiceAccount.
 *
 * <p>Contract: every method blocks for at most a few seconds and never throws for what the API
 * server or a Service answers: a refusal, a missing object and an unreachable server are values.
 */
public interface SelftestCluster {

  /** A cluster-scoped ValidatingAdmissionPolicy, by name. */
  Read<ValidatingAdmissionPolicy> admissionPolicy(String name);

  /** A cluster-scoped ValidatingAdmissionPolicyBinding, by name. */
  Read<ValidatingAdmissionPolicyBinding> admissionPolicyBinding(String name);

  Read<Deployment> deployment(String namespace, String name);

  /** A create of {@code object} (a Secret or a Pod) with {@code dryRun=All}: nothing is stored. */
  DryRun dryRunCreate(HasMetadata object);

  /** A GET of a component's {@code /readyz} through its Service. */
  Readyz readyz(URI url);

  /**
   * What {@code /readyz} answers on each pod the Deployment selects (a few at most), asked at the
   * pod's address on its {@code health} port: why a component with no available replica is not
   * ready, when its Service has no endpoint to ask.
   */
  Read<List<PodReadyz>> podsReadyz(String namespace, Deployment deployment);

  /** One pod's {@code /readyz}. */
  record PodReadyz(String pod, Readyz readyz) {
    public PodReadyz {
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(readyz, "readyz");
    }
  }

  /** Every ImageAlternative and ImageMirror, as stored (their status included). */
  Read<List<GenericKubernetesResource>> routingResources();

  /**
   * What a read found: the object (200), nothing (404, {@link #missing()}), or a failure with the
   * API server's code and message (403 from the test's RBAC, a server error, or code 0 for no
   * answer at all).
   */
  record Read<T>(T object, int code, String message) {

    public Read {
      Objects.requireNonNull(message, "message");
    }

    public static <T> Read<T> found(T object) {
      return new Read<>(Objects.requireNonNull(object, "object"), 200, "");
    }

    public static <T> Read<T> missing() {
      return new Read<>(null, 404, "not found");
    }

    public static <T> Read<T> failed(int code, String message) {
      if (code == 200 || code == 404) {
        throw new IllegalArgumentException("a failed read is neither 200 nor 404: " + code);
      }
      return new Read<>(null, code, message);
    }

    public boolean isFound() {
      return object != null;
    }

    public boolean isMissing() {
      return object == null && code == 404;
    }
  }

  /**
   * What the API server answered a dry-run create: the object as it would have been stored
   * (admission's changes in it), or a refusal at some stage (RBAC, admission, validation) with its
   * code, reason and message; code 0 when there was no answer.
   */
  record DryRun(HasMetadata admitted, int code, String reason, String message) {

    public DryRun {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }

    public static DryRun admitted(HasMetadata object) {
      return new DryRun(Objects.requireNonNull(object, "object"), 201, "", "");
    }

    public static DryRun refused(int code, String reason, String message) {
      return new DryRun(null, code, reason, message);
    }

    public boolean wasAdmitted() {
      return admitted != null;
    }
  }

  /**
   * What a component's {@code /readyz} answered: 200, another status with the start of its body, or
   * no answer at all (no such Service or name, a refused connection, a timeout, a network policy)
   * with why.
   */
  record Readyz(State state, int code, String detail) {

    public enum State {
      READY,
      NOT_READY,
      UNREACHABLE
    }

    public Readyz {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(detail, "detail");
    }

    public static Readyz ready() {
      return new Readyz(State.READY, 200, "");
    }

    public static Readyz notReady(int code, String body) {
      return new Readyz(State.NOT_READY, code, body);
    }

    public static Readyz unreachable(String why) {
      return new Readyz(State.UNREACHABLE, 0, why);
    }
  }
}
