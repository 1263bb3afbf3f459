package io.kuik.sim.world.api;

/**
 * Validating admission, the last stage before storage: the ValidatingAdmissionPolicies and their
 * bindings stored in the cluster, evaluated as the API server does.
 *
 * <p>Contract: reads the policies and bindings from {@link ClusterState} on every call (they are
 * ordinary objects that can change); never throws: an evaluation error is decided by the policy's
 * failurePolicy and reported as a refusal or ignored.
 */
@FunctionalInterface
public interface ValidatingAdmission {

  Verdict validate(AdmissionRequest request);

  /**
   * Admitted, or refused with the API server's status reason ({@code Invalid}, 422, unless the
   * failing validation names another such as {@code Forbidden}, 403) and message (e.g. {@code
   * ValidatingAdmissionPolicy 'x' with binding 'y' denied request: ...}).
   */
  record Verdict(boolean admitted, String reason, String message) {
    public static final Verdict ADMIT = new Verdict(true, null, null);

    public static Verdict refuse(String message) {
      return new Verdict(false, "Invalid", message);
    }

    public static Verdict refuse(String reason, String message) {
      return new Verdict(false, reason == null ? "Invalid" : reason, message);
    }
  }

  ValidatingAdmission ADMIT_ALL = request -> Verdict.ADMIT;
}
