package io.kuik.model;

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

  /** A ValidatingAdmissionPolicy and the binding that must bind it with Deny, by name. */
  public record Policy(String policy, String binding) {
    public Policy {
      Objects.requireNonNull(policy, "policy");
      Objects.requireNonNull(binding, "binding");
      if (policy.isBlank() || binding.isBlank()) {
        throw new IllegalArgumentException("an admission policy and its binding need names");
      }
    }

    @Override
    public String toString() {
      return policy.equals(binding)
          ? "the admission policy " + policy + " and its binding"
          : "the admission policy " + policy + " and its binding " + binding;
    }
  }

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

  /** {@link #judge} for the names of one {@link Policy}. */
  public static WriteBounds judge(Policy names, Observed policyObject, Observed bindingObject) {
    return judge(names.policy(), policyObject, names.binding(), bindingObject);
  }

  /**
   * Several policies bound the writes (the Secrets' and the pods'): in place when each is, else the
   * first that is not says why.
   */
  public static WriteBounds all(List<WriteBounds> each) {
    for (WriteBounds one : each) {
      if (!one.inPlace()) {
        return one;
      }
    }
    if (each.size() == 1) {
      return each.get(0);
    }
    return new WriteBounds(true, String.join("; ", each.stream().map(WriteBounds::why).toList()));
  }

  /** The objects could not be read: the syncer does not know, so it does not write. */
  public static WriteBounds unreadable(String what) {
    return new WriteBounds(false, what);
  }
}
