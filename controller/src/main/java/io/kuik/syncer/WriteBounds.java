package io.kuik.syncer;

import java.util.List;
import java.util.Objects;

/**
 * Whether the syncer may write now: the chart's ValidatingAdmissionPolicy and its binding, which
 * bound every Secret write the syncer's RBAC allows, are both in place
 * (docs/behaviour.md#writing-only-under-the-policy). Helm creates them after the Deployments on
 * install and deletes them with everything else on uninstall, so the syncer can run while they are
 * missing; it writes nothing then. The decision, pure: the drivers read the two objects by name.
 *
 * @param inPlace whether both are there, and the binding binds the policy with Deny
 * @param why what is missing or wrong, for the log line, {@code /readyz} and the docs' words; or
 *     that both are in place
 */
public record WriteBounds(boolean inPlace, String why) {

  /**
   * What a driver read of one object: whether it exists, whether it is being deleted, and for the
   * binding, the policy it binds and its validation actions.
   */
  public record Observed(
      boolean exists, boolean deleting, String policyName, List<String> validationActions) {

    public Observed {
      validationActions = validationActions == null ? List.of() : List.copyOf(validationActions);
    }

    /** The object does not exist (404). */
    public static final Observed MISSING = new Observed(false, false, null, List.of());

    /** A policy as read: it exists, perhaps being deleted. */
    public static Observed policy(boolean deleting) {
      return new Observed(true, deleting, null, List.of());
    }

    /** A binding as read. */
    public static Observed binding(
        boolean deleting, String policyName, List<String> validationActions) {
      return new Observed(true, deleting, policyName, validationActions);
    }
  }

  public WriteBounds {
    Objects.requireNonNull(why, "why");
  }

  /**
   * Whether the policy {@code policy} and the binding {@code binding}, as read, bound the writes.
   */
  public static WriteBounds judge(
      String policy, Observed policyObject, String binding, Observed bindingObject) {
    String thePolicy = "the ValidatingAdmissionPolicy " + policy;
    String theBinding = "the ValidatingAdmissionPolicyBinding " + binding;
    if (!policyObject.exists()) {
      return new WriteBounds(false, thePolicy + " does not exist");
    }
    if (policyObject.deleting()) {
      return new WriteBounds(false, thePolicy + " is being deleted");
    }
    if (!bindingObject.exists()) {
      return new WriteBounds(false, theBinding + " does not exist");
    }
    if (bindingObject.deleting()) {
      return new WriteBounds(false, theBinding + " is being deleted");
    }
    if (!policy.equals(bindingObject.policyName())) {
      return new WriteBounds(
          false, theBinding + " binds " + bindingObject.policyName() + ", not " + policy);
    }
    if (!bindingObject.validationActions().contains("Deny")) {
      return new WriteBounds(
          false,
          theBinding
              + " only "
              + String.join(" and ", bindingObject.validationActions())
              + "s: it must Deny");
    }
    return new WriteBounds(true, thePolicy + " and its binding are in place");
  }

  /** The objects could not be read: the syncer does not know, so it does not write. */
  public static WriteBounds unreadable(String what) {
    return new WriteBounds(false, what);
  }
}
