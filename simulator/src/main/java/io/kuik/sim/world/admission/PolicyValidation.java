package io.kuik.sim.world.admission;

import dev.cel.common.types.CelKind;
import io.kuik.sim.world.admission.CelExpressions.Environment;
import io.kuik.sim.world.validation.FieldErrors;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the API server checks when a ValidatingAdmissionPolicy is written, read from
 * kubernetes/kubernetes {@code pkg/apis/admissionregistration/validation/validation.go} ({@code
 * validateValidatingAdmissionPolicySpec} and the {@code validateMatchCondition}, {@code
 * validateVariable}, {@code validateValidation} it calls): every expression is compiled then, and a
 * policy with one that does not compile, or whose type is plainly wrong, is refused with 422 naming
 * the field. So a broken policy never reaches the evaluation stage, where its failurePolicy would
 * decide.
 *
 * <p>Checked: failurePolicy, matchConstraints with resourceRules, each match condition (name,
 * expression compiled to a bool, no duplicate names, at most 64), each variable (a CEL identifier,
 * an expression that compiles), validations (at least one, or audit annotations; each expression
 * compiled to a bool, its messageExpression to a string, a message on one line, a supported
 * reason). Not checked: the rules' apiGroups and resources, the selectors, audit annotation keys.
 */
public final class PolicyValidation {

  private static final Pattern CEL_IDENTIFIER = Pattern.compile("^[_a-zA-Z][_a-zA-Z0-9]*$");
  private static final Set<String> CEL_RESERVED =
      Set.of(
          "true",
          "false",
          "null",
          "in",
          "as",
          "break",
          "const",
          "continue",
          "else",
          "for",
          "function",
          "if",
          "import",
          "let",
          "loop",
          "package",
          "namespace",
          "return",
          "var",
          "void",
          "while");
  private static final List<String> FAILURE_POLICIES = List.of("Fail", "Ignore");
  private static final List<String> REASONS =
      List.of("Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized");
  private static final CelExpressions CEL = new CelExpressions();

  private PolicyValidation() {}

  /** The field errors of a policy being created or updated; empty when it may be stored. */
  public static FieldErrors validate(ObjectNode policy) {
    FieldErrors errors = new FieldErrors();
    JsonNode spec = policy.path("spec");
    String failurePolicy = Json.text(spec, "failurePolicy");
    if (spec.has("failurePolicy") && !FAILURE_POLICIES.contains(failurePolicy)) {
      errors.notSupported("spec.failurePolicy", failurePolicy, FAILURE_POLICIES);
    }
    if (!spec.path("matchConstraints").isObject()) {
      errors.required("spec.matchConstraints", "");
    } else if (spec.path("matchConstraints").path("resourceRules").isEmpty()) {
      errors.required("spec.matchConstraints.resourceRules", "");
    }
    matchConditions(spec.path("matchConditions"), errors);
    variables(spec.path("variables"), errors);
    JsonNode validations = spec.path("validations");
    if (validations.isEmpty() && spec.path("auditAnnotations").isEmpty()) {
      String both = "validations or auditAnnotations must contain at least one item";
      errors.required("spec.validations", both);
      errors.required("spec.auditAnnotations", both);
    }
    for (int i = 0; i < validations.size(); i++) {
      validation(validations.get(i), "spec.validations[" + i + "]", errors);
    }
    return errors;
  }

  private static void matchConditions(JsonNode conditions, FieldErrors errors) {
    if (conditions.size() > 64) {
      errors.tooMany("spec.matchConditions", conditions.size(), 64);
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < conditions.size(); i++) {
      String path = "spec.matchConditions[" + i + "]";
      JsonNode condition = conditions.get(i);
      expression(
          Environment.MATCH_CONDITION,
          Json.text(condition, "expression"),
          CelKind.BOOL,
          path + ".expression",
          "",
          errors);
      String name = Json.text(condition, "name");
      if (name.isEmpty()) {
        errors.required(path + ".name", "");
      } else if (!names.add(name)) {
        errors.duplicate(path + ".name", name);
      }
    }
  }

  private static void variables(JsonNode variables, FieldErrors errors) {
    for (int i = 0; i < variables.size(); i++) {
      String path = "spec.variables[" + i + "]";
      JsonNode variable = variables.get(i);
      String name = Json.text(variable, "name");
      if (name.isBlank()) {
        errors.required(path + ".name", "name is not specified");
      } else if (!CEL_IDENTIFIER.matcher(name).matches() || CEL_RESERVED.contains(name)) {
        errors.invalid(path + ".name", name, "name is not a valid CEL identifier");
      }
      expression(
          Environment.VALIDATION,
          Json.text(variable, "expression"),
          null,
          path + ".expression",
          "expression is not specified",
          errors);
    }
  }

  private static void validation(JsonNode validation, String path, FieldErrors errors) {
    expression(
        Environment.VALIDATION,
        Json.text(validation, "expression"),
        CelKind.BOOL,
        path + ".expression",
        "expression is not specified",
        errors);
    if (validation.has("messageExpression")) {
      String messageExpression = Json.text(validation, "messageExpression");
      if (messageExpression.isBlank()) {
        errors.invalid(
            path + ".messageExpression", messageExpression, "must be non-empty if specified");
      } else {
        expression(
            Environment.VALIDATION,
            messageExpression,
            CelKind.STRING,
            path + ".messageExpression",
            "",
            errors);
      }
    }
    String message = Json.text(validation, "message");
    if (validation.has("message") && message.isBlank()) {
      errors.invalid(path + ".message", message, "message must be non-empty if specified");
    } else if (message.strip().contains("\n") || message.strip().contains("\r")) {
      errors.invalid(path + ".message", message, "message must not contain line breaks");
    }
    String reason = Json.text(validation, "reason");
    if (validation.has("reason") && !REASONS.contains(reason)) {
      errors.notSupported(path + ".reason", reason, REASONS);
    }
  }

  private static void expression(
      Environment environment,
      String text,
      CelKind expected,
      String path,
      String requiredDetail,
      FieldErrors errors) {
    if (text.isBlank()) {
      errors.required(path, requiredDetail);
      return;
    }
    Optional<String> error = CEL.storageError(environment, text, expected);
    error.ifPresent(detail -> errors.invalid(path, text, detail));
  }
}
