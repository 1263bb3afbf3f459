package io.kuik.sim.trace;

/**
 * Where in the API server's order a request was refused: the stage decides whose business the
 * refusal is (a refusal by RBAC or by an admission policy means the client asked for what it must
 * not; one by the namespace lifecycle is the cluster's own business).
 */
public enum Stage {
  /** A fault of the server itself: 429 TooManyRequests, 503 ServiceUnavailable. */
  SERVER_FAULT,
  /** RBAC. */
  AUTHORIZATION,
  /**
   * The built-in admission plugins: NamespaceLifecycle, ServiceAccount,
   * OwnerReferencesPermissionEnforcement.
   */
  ADMISSION_PLUGIN,
  /** A mutating admission webhook denied the request or failed under failurePolicy Fail. */
  ADMISSION_WEBHOOK,
  /** The object's own validation (422 Invalid), a CRD's schema included. */
  OBJECT_VALIDATION,
  /** A ValidatingAdmissionPolicy. */
  ADMISSION_POLICY,
  /** The handler and storage: not found, already exists, conflicts, bad requests. */
  HANDLER
}
