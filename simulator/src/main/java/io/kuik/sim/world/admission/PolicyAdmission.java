package io.kuik.sim.world.admission;

import io.kuik.sim.world.admission.CelExpressions.Environment;
import io.kuik.sim.world.admission.PolicyDecision.Outcome;
import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.ValidatingAdmission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validating admission by the ValidatingAdmissionPolicies and bindings stored in the cluster,
 * evaluated with a real CEL engine as the API server evaluates them. Policies and bindings are read
 * again on every request: they are ordinary objects, and the chart's are loaded from {@code
 * chart/files}, never copied here.
 *
 * <p>For each policy whose matchConstraints select the request, and each of its bindings whose
 * matchResources select it too:
 *
 * <ol>
 *   <li>the match conditions: one false skips the policy; otherwise an error is decided by the
 *       failurePolicy (Fail refuses, Ignore skips); all true apply it;
 *   <li>the validations, in order, with the policy's variables evaluated lazily when first read: a
 *       false one denies with its messageExpression's result, else its message, else {@code failed
 *       expression: <expression>}, and its reason ({@code Invalid} by default); an error denies
 *       under Fail, is let through under Ignore.
 * </ol>
 *
 * A denial refuses the request when the binding's validationActions hold {@code Deny}; the first
 * such denial gives the message {@code ValidatingAdmissionPolicy '<policy>' with binding
 * '<binding>' denied request: <message>}, which the API server puts after {@code <resource>
 * "<name>" is forbidden: }. Expressions see {@code object}, {@code oldObject}, {@code request},
 * {@code namespaceObject}, {@code params} (see {@link PolicyInputs}) and {@code variables}; each is
 * compiled once and kept.
 *
 * <p>{@link #setEvaluationFailure} injects the fault "the policy cannot be evaluated": the policy's
 * variables, validations and message expressions fail, its match conditions still decide whether it
 * applies (a policy that cannot be evaluated is not one whose match conditions fail).
 */
public final class PolicyAdmission implements ValidatingAdmission {

  private static final Comparator<ObjectNode> BY_NAME = Comparator.comparing(Json::name);
  private static final String DEFAULT_REASON = "Invalid";
  private static final String INJECTED_FAULT =
      "CEL evaluation failed (fault injected by the simulator)";

  private final ClusterState state;
  private final MatchResources matchResources;
  private final CelExpressions cel = new CelExpressions();
  private final Set<String> failingPolicies = new TreeSet<>();

  public PolicyAdmission(ClusterState state) {
    this.state = Objects.requireNonNull(state, "state");
    this.matchResources = new MatchResources(state);
  }

  /**
   * Makes the named policy fail to evaluate (or evaluate again): under failurePolicy Fail, every
   * request it applies to is refused with a message saying it could not be evaluated.
   */
  public void setEvaluationFailure(String policyName, boolean failing) {
    if (failing) {
      failingPolicies.add(policyName);
    } else {
      failingPolicies.remove(policyName);
    }
  }

  @Override
  public Verdict validate(AdmissionRequest request) {
    for (PolicyDecision decision : decisions(request)) {
      if (decision.refuses()) {
        return Verdict.refuse(decision.reason(), decision.refusalMessage());
      }
    }
    return Verdict.ADMIT;
  }

  /**
   * Every decision taken on the request, policies and bindings in name order: one per policy and
   * binding that select it (one per parameter object when the policy has a paramKind).
   */
  public List<PolicyDecision> decisions(AdmissionRequest request) {
    List<ObjectNode> bindings =
        sorted(state.list(ResourceType.VALIDATING_ADMISSION_POLICY_BINDING, null));
    var decisions = new ArrayList<PolicyDecision>();
    for (ObjectNode policy : sorted(state.list(ResourceType.VALIDATING_ADMISSION_POLICY, null))) {
      if (!matchResources.matchesPolicy(policy.path("spec").path("matchConstraints"), request)) {
        continue;
      }
      for (ObjectNode binding : bindings) {
        JsonNode bindingSpec = binding.path("spec");
        if (Json.text(bindingSpec, "policyName").equals(Json.name(policy))
            && matchResources.matchesBinding(bindingSpec.path("matchResources"), request)) {
          decisions.addAll(new Evaluation(policy, binding).decide(request));
        }
      }
    }
    return decisions;
  }

  private static List<ObjectNode> sorted(List<ObjectNode> objects) {
    return objects.stream().sorted(BY_NAME).toList();
  }

  /** One policy through one binding. */
  private final class Evaluation {
    private final String policyName;
    private final String bindingName;
    private final JsonNode spec;
    private final JsonNode bindingSpec;
    private final boolean failClosed;
    private final boolean injectedFault;
    private final List<String> actions;

    Evaluation(ObjectNode policy, ObjectNode binding) {
      this.policyName = Json.name(policy);
      this.bindingName = Json.name(binding);
      this.spec = policy.path("spec");
      this.bindingSpec = binding.path("spec");
      // Fail is the API server's default.
      this.failClosed = !"Ignore".equals(Json.text(spec, "failurePolicy"));
      this.injectedFault = failingPolicies.contains(policyName);
      this.actions = Json.strings(bindingSpec, "validationActions");
    }

    List<PolicyDecision> decide(AdmissionRequest request) {
      Map<String, Object> inputs = PolicyInputs.of(request, state);
      if (!spec.has("paramKind")) {
        return List.of(decide(inputs));
      }
      List<Object> params;
      try {
        params = params(request);
      } catch (ExpressionError e) {
        return List.of(failure("failed to configure binding: " + e.getMessage()));
      }
      if (params.isEmpty()) {
        boolean deny =
            "Deny".equals(Json.text(bindingSpec.path("paramRef"), "parameterNotFoundAction"));
        return List.of(
            deny
                ? decision(
                    Outcome.DENIED,
                    DEFAULT_REASON,
                    "failed to configure binding: no params found for policy binding with `Deny`"
                        + " parameterNotFoundAction")
                : decision(Outcome.SKIPPED, null, null));
      }
      var decisions = new ArrayList<PolicyDecision>();
      for (Object param : params) {
        var withParams = new HashMap<>(inputs);
        withParams.put("params", param);
        decisions.add(decide(withParams));
      }
      return decisions;
    }

    private PolicyDecision decide(Map<String, Object> inputs) {
      // matchconditions/matcher.go (Match): one false condition skips the policy even when
      // another failed; otherwise the failures, aggregated, go to the failurePolicy.
      List<String> matchErrors = new ArrayList<>();
      for (JsonNode condition : spec.path("matchConditions")) {
        try {
          if (!cel.evaluateBoolean(
              Environment.MATCH_CONDITION, Json.text(condition, "expression"), inputs)) {
            return decision(Outcome.SKIPPED, null, null);
          }
        } catch (ExpressionError e) {
          matchErrors.add(e.getMessage());
        }
      }
      if (!matchErrors.isEmpty()) {
        // Ignore lets the request through as if it did not match.
        return failure(
            matchErrors.size() == 1
                ? matchErrors.get(0)
                : "[" + String.join(", ", matchErrors) + "]");
      }
      return validate(inputs);
    }

    private PolicyDecision validate(Map<String, Object> inputs) {
      var declared = new ArrayList<LazyVariables.Variable>();
      for (JsonNode variable : spec.path("variables")) {
        declared.add(
            new LazyVariables.Variable(
                Json.text(variable, "name"), Json.text(variable, "expression")));
      }
      var variables =
          new LazyVariables(
              declared, (expression, earlier) -> evaluate(expression, with(inputs, earlier)));
      Map<String, Object> all = with(inputs, variables.all());
      String ignored = null;
      for (JsonNode validation : spec.path("validations")) {
        String expression = Json.text(validation, "expression");
        try {
          Object holds = evaluate(expression, all);
          if (!(holds instanceof Boolean)) {
            throw new ExpressionError(
                "expression '" + CelExpressions.shown(expression) + "' must evaluate to bool");
          }
          if (!(Boolean) holds) {
            String reason = Json.text(validation, "reason");
            return decision(
                Outcome.DENIED,
                reason.isEmpty() ? DEFAULT_REASON : reason,
                message(validation, all));
          }
        } catch (ExpressionError e) {
          if (failClosed) {
            return failure(e.getMessage());
          }
          ignored = ignored == null ? e.getMessage() : ignored;
        }
      }
      return ignored == null
          ? decision(Outcome.PASSED, null, null)
          : decision(Outcome.ERROR_IGNORED, null, ignored);
    }

    private String message(JsonNode validation, Map<String, Object> inputs) {
      String messageExpression = Json.text(validation, "messageExpression");
      if (!messageExpression.isEmpty()) {
        try {
          Object message = evaluate(messageExpression, inputs);
          // The API server falls back to the static message when the expression fails or gives an
          // empty or multi-line string.
          if (message instanceof String text && !text.isBlank() && !text.contains("\n")) {
            return text.strip();
          }
        } catch (ExpressionError e) {
          // fall back below
        }
      }
      String message = Json.text(validation, "message");
      return message.isEmpty()
          ? "failed expression: " + CelExpressions.shown(Json.text(validation, "expression"))
          : message;
    }

    private Object evaluate(String expression, Map<String, Object> inputs) throws ExpressionError {
      if (injectedFault) {
        throw new ExpressionError(
            "expression '"
                + CelExpressions.shown(expression)
                + "' resulted in error: "
                + INJECTED_FAULT);
      }
      return cel.evaluate(Environment.VALIDATION, expression, inputs);
    }

    private List<Object> params(AdmissionRequest request) throws ExpressionError {
      JsonNode paramKind = spec.path("paramKind");
      String apiVersion = Json.text(paramKind, "apiVersion");
      String kind = Json.text(paramKind, "kind");
      Optional<ResourceType> type = ResourceType.ofKind(apiVersion, kind);
      if (type.isEmpty()) {
        throw new ExpressionError("paramKind " + apiVersion + "/" + kind + " is not served");
      }
      JsonNode paramRef = bindingSpec.path("paramRef");
      if (!paramRef.isObject()) {
        throw new ExpressionError("the policy has a paramKind but the binding no paramRef");
      }
      String namespace = null;
      if (type.get().namespaced()) {
        namespace = Json.text(paramRef, "namespace");
        if (namespace.isEmpty()) {
          namespace = request.attributes().namespace();
        }
        if (namespace == null || namespace.isEmpty()) {
          throw new ExpressionError(
              "namespaced params need a paramRef namespace for a cluster-scoped request");
        }
      }
      var params = new ArrayList<Object>();
      String name = Json.text(paramRef, "name");
      if (!name.isEmpty()) {
        state.get(type.get(), namespace, name).ifPresent(p -> params.add(CelValues.of(p)));
      } else {
        for (ObjectNode candidate : sorted(state.list(type.get(), namespace))) {
          if (LabelSelectors.matches(
              paramRef.path("selector"), LabelSelectors.labelsOf(candidate))) {
            params.add(CelValues.of(candidate));
          }
        }
      }
      return params;
    }

    private PolicyDecision failure(String error) {
      // validator.go: an expression that cannot be evaluated is a decision with the error itself
      // as its message, denied under Fail with no reason of its own (hence Invalid).
      return failClosed
          ? decision(Outcome.DENIED, DEFAULT_REASON, error)
          : decision(Outcome.ERROR_IGNORED, null, error);
    }

    private PolicyDecision decision(Outcome outcome, String reason, String message) {
      return new PolicyDecision(policyName, bindingName, outcome, reason, message, actions);
    }
  }

  private static Map<String, Object> with(Map<String, Object> inputs, Map<String, Object> vars) {
    var all = new HashMap<>(inputs);
    all.put("variables", vars);
    return all;
  }
}
