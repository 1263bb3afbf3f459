package io.kuik.sim.world.admission;

import java.util.List;
import java.util.Objects;

/**
 * What one ValidatingAdmissionPolicy, through one of its bindings, decided about one request that
 * its matchConstraints and the binding's matchResources selected.
 *
 * @param outcome see {@link Outcome}
 * @param reason the failing validation's reason ({@code Invalid} unless it names one); null unless
 *     {@link Outcome#DENIED}
 * @param message the failing validation's message, or why the policy could not be evaluated; null
 *     for {@link Outcome#PASSED} and {@link Outcome#SKIPPED}
 * @param validationActions the binding's actions; a denial refuses the request only under {@code
 *     Deny}
 */
public record PolicyDecision(
    String policy,
    String binding,
    Outcome outcome,
    String reason,
    String message,
    List<String> validationActions) {

  /** How the policy's expressions came out. */
  public enum Outcome {
    /** Every validation held. */
    PASSED,
    /** A match condition was false: the policy does not apply to this request. */
    SKIPPED,
    /**
     * A validation was false, or, under failurePolicy Fail, an expression could not be evaluated.
     */
    DENIED,
    /** An expression could not be evaluated and failurePolicy Ignore let the request through. */
    ERROR_IGNORED
  }

  public PolicyDecision {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(binding, "binding");
    Objects.requireNonNull(outcome, "outcome");
    validationActions = List.copyOf(validationActions);
  }

  /** Whether this decision refuses the request: denied under a binding that enforces with Deny. */
  public boolean refuses() {
    return outcome == Outcome.DENIED && validationActions.contains("Deny");
  }

  /** The API server's refusal message. */
  public String refusalMessage() {
    return "ValidatingAdmissionPolicy '"
        + policy
        + "' with binding '"
        + binding
        + "' denied request: "
        + message;
  }
}
