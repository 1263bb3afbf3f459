package io.kuik.sim.world.crd;

import dev.cel.common.CelValidationResult;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.kuik.sim.world.admission.CelValues;
import io.kuik.sim.world.validation.FieldErrors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The {@code x-kubernetes-validations} rules of a structural schema, evaluated with a real CEL
 * engine as kubernetes/apiextensions-apiserver does ({@code
 * pkg/apiserver/schema/cel/validation.go}, {@code Validator.Validate}, {@code
 * validateExpressions}): at every node that has rules and a non-null value, {@code self} is that
 * value; a rule that reads {@code oldSelf} (a transition rule) runs only on an update whose old
 * object has a value at the same place (object fields by name, items of {@code
 * x-kubernetes-list-type: map} lists by their keys, no other list items). A false rule is an error
 * at the node, or at the node plus its {@code fieldPath}; its detail is the {@code
 * messageExpression}'s string when that evaluates to one (non-empty, one line), else the {@code
 * message}, else {@code failed rule: <rule>}; its {@code reason} picks the error type.
 *
 * <p>Inputs are {@code dyn} here, not typed from the schema: a rule reading a field the schema does
 * not declare compiles here and fails at evaluation, where the API server refuses it when the CRD
 * is written. Cost limits and {@code optionalOldSelf} are not modelled.
 */
final class ValidationRules {

  private static final Pattern OLD_SELF = Pattern.compile("\\boldSelf\\b");

  private record Compiled(CelRuntime.Program program, String error) {}

  private final CelCompiler compiler =
      CelCompilerFactory.standardCelCompilerBuilder()
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .addLibraries(CelExtensions.strings(), CelExtensions.optional())
          .addVar("self", SimpleType.DYN)
          .addVar("oldSelf", SimpleType.DYN)
          .build();
  private final CelRuntime runtime =
      CelRuntimeFactory.standardCelRuntimeBuilder()
          .addLibraries(CelExtensions.strings(), CelExtensions.optional())
          .build();
  private final Map<String, Compiled> compiled = new HashMap<>();

  /** The rules' errors for a whole object, {@code old} null on create. */
  FieldErrors validate(JsonNode object, JsonNode old, Schema schema) {
    FieldErrors errors = new FieldErrors();
    validate(object, old, schema, "", errors);
    return errors;
  }

  /** Why a rule or message expression cannot be stored, or null when it compiles. */
  String compileError(String expression) {
    return compiled(expression).error();
  }

  private void validate(JsonNode value, JsonNode old, Schema schema, String path, FieldErrors out) {
    if (schema == null || value == null || value.isNull()) {
      return;
    }
    JsonNode previous = old == null || old.isNull() ? null : old;
    for (JsonNode rule : schema.validations()) {
      check(rule, value, previous, schema, path, out);
    }
    if (value.isObject()) {
      for (Map.Entry<String, JsonNode> field : value.properties()) {
        String name = field.getKey();
        String childPath =
            schema.declares(name) ? SchemaValidation.child(path, name) : path + "[" + name + "]";
        JsonNode oldChild = previous != null && previous.isObject() ? previous.get(name) : null;
        validate(field.getValue(), oldChild, schema.field(name), childPath, out);
      }
    } else if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        JsonNode item = value.get(i);
        validate(
            item, correlated(item, previous, schema), schema.items(), path + "[" + i + "]", out);
      }
    }
  }

  private static JsonNode correlated(JsonNode item, JsonNode oldList, Schema schema) {
    if (oldList == null || !oldList.isArray() || !schema.isMapList()) {
      return null;
    }
    List<String> keys = schema.listMapKeys();
    for (JsonNode candidate : oldList) {
      boolean same = true;
      for (String key : keys) {
        same &= item.path(key).equals(candidate.path(key));
      }
      if (same) {
        return candidate;
      }
    }
    return null;
  }

  private void check(
      JsonNode rule, JsonNode value, JsonNode old, Schema schema, String path, FieldErrors out) {
    String text = rule.path("rule").asString("");
    String message = rule.path("message").asString("").strip();
    String shown = message.isEmpty() ? text.strip() : message;
    String type = Rendering.quoted(schema.type());
    String here = path.isEmpty() ? "<nil>" : path;
    Compiled program = compiled(text);
    if (program.error() != null) {
      out.invalidRendered(here, type, "rule compile error: " + program.error());
      return;
    }
    boolean transition = OLD_SELF.matcher(text).find();
    if (transition && old == null) {
      return; // a transition rule needs an old value to compare with
    }
    Map<String, Object> inputs = new HashMap<>();
    inputs.put("self", CelValues.of(value));
    inputs.put("oldSelf", transition ? CelValues.of(old) : CelValues.NULL);
    Object result;
    try {
      result = program.program().eval(inputs);
    } catch (CelEvaluationException | RuntimeException e) {
      out.invalidRendered(here, type, e.getMessage() + " evaluating rule: " + shown);
      return;
    }
    if (Boolean.TRUE.equals(result)) {
      return;
    }
    String at = withFieldPath(path, rule.path("fieldPath").asString(""));
    if (at.isEmpty()) {
      at = "<nil>"; // the root's path is nil, and field.Path prints it so
    }
    String detail = detail(rule, inputs, message, text);
    String reason = rule.path("reason").asString("FieldValueInvalid");
    boolean composite = value.isObject() || value.isArray();
    switch (reason) {
      case "FieldValueForbidden":
        out.forbidden(at, detail);
        break;
      case "FieldValueRequired":
        out.required(at, detail);
        break;
      case "FieldValueDuplicate":
        out.duplicate(at, composite ? schema.type() : value.asString());
        break;
      default:
        out.invalidRendered(at, composite ? null : Rendering.value(value), detail);
    }
  }

  private String detail(JsonNode rule, Map<String, Object> inputs, String message, String text) {
    String messageExpression = rule.path("messageExpression").asString("");
    if (!messageExpression.isEmpty()) {
      Compiled expression = compiled(messageExpression);
      if (expression.error() == null) {
        try {
          Object evaluated = expression.program().eval(inputs);
          if (evaluated instanceof String s && !s.isBlank() && !s.contains("\n")) {
            return s.strip();
          }
        } catch (CelEvaluationException | RuntimeException e) {
          // the API server logs it and falls back to the message
        }
      }
    }
    return message.isEmpty() ? "failed rule: " + text.strip() : message;
  }

  /** {@code .repository} or {@code ['a.b']} after the node's own path, as field.Path prints it. */
  private static String withFieldPath(String path, String fieldPath) {
    if (fieldPath.isEmpty()) {
      return path;
    }
    StringBuilder out = new StringBuilder(path);
    String rest = fieldPath;
    while (!rest.isEmpty()) {
      if (rest.startsWith("['")) {
        int end = rest.indexOf("']");
        out.append('[').append(rest, 2, end).append(']');
        rest = rest.substring(end + 2);
      } else if (rest.startsWith(".")) {
        int end = nextSegment(rest);
        String name = rest.substring(1, end);
        out.append(out.length() == 0 ? "" : ".").append(name);
        rest = rest.substring(end);
      } else {
        out.append(rest);
        break;
      }
    }
    return out.toString();
  }

  private static int nextSegment(String rest) {
    int dot = rest.indexOf('.', 1);
    int bracket = rest.indexOf('[', 1);
    int end = rest.length();
    if (dot > 0) {
      end = Math.min(end, dot);
    }
    if (bracket > 0) {
      end = Math.min(end, bracket);
    }
    return end;
  }

  private Compiled compiled(String text) {
    return compiled.computeIfAbsent(text, this::compile);
  }

  private Compiled compile(String text) {
    CelValidationResult result = compiler.compile(text);
    if (result.hasError()) {
      return new Compiled(null, result.getErrorString().lines().findFirst().orElse("invalid"));
    }
    try {
      return new Compiled(runtime.createProgram(result.getAst()), null);
    } catch (Exception e) {
      return new Compiled(null, e.getMessage());
    }
  }
}
