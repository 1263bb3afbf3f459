package io.kuik.sim.world.admission;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Compiles and evaluates the CEL expressions of admission policies with a real CEL engine, in the
 * two environments the API server gives them: match conditions see {@code object, oldObject,
 * request, namespaceObject, params}; validations, message expressions and variables see {@code
 * variables} too. Every input is {@code dyn}: objects arrive as plain maps, not schema-typed.
 *
 * <p>Each expression is compiled once per environment and kept, as the API server compiles a policy
 * once when it is stored. A compile error is kept too and reported at every evaluation, as the API
 * server reports it through the policy's failurePolicy.
 */
final class CelExpressions {

  /** Which inputs an expression may use. */
  enum Environment {
    MATCH_CONDITION,
    VALIDATION
  }

  static final String[] INPUTS = {"object", "oldObject", "request", "namespaceObject", "params"};

  private record Compiled(CelRuntime.Program program, CelType resultType, String error) {}

  private record Key(Environment environment, String text) {}

  private final CelCompiler matchConditionCompiler = compiler(false);
  private final CelCompiler validationCompiler = compiler(true);
  private final CelRuntime runtime =
      CelRuntimeFactory.standardCelRuntimeBuilder()
          .addLibraries(CelExtensions.strings(), CelExtensions.optional())
          .build();
  private final Map<Key, Compiled> compiled = new HashMap<>();

  private static CelCompiler compiler(boolean withVariables) {
    CelCompilerBuilder builder =
        CelCompilerFactory.standardCelCompilerBuilder()
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addLibraries(CelExtensions.strings(), CelExtensions.optional());
    for (String input : INPUTS) {
      builder.addVar(input, SimpleType.DYN);
    }
    if (withVariables) {
      builder.addVar("variables", MapType.create(SimpleType.STRING, SimpleType.DYN));
    }
    return builder.build();
  }

  /**
   * The expression's value for these inputs.
   *
   * @throws ExpressionError when it does not compile or its evaluation fails
   */
  Object evaluate(Environment environment, String text, Map<String, Object> inputs)
      throws ExpressionError {
    Compiled program = compiled.computeIfAbsent(new Key(environment, text), this::compile);
    if (program.error() != null) {
      throw new ExpressionError(
          // activation.go (Evaluate): a stored expression that did not compile.
          "compilation error: compilation failed: " + program.error());
    }
    try {
      return program.program().eval(inputs);
    } catch (CelEvaluationException | RuntimeException e) {
      throw new ExpressionError(
          "expression '" + shown(text) + "' resulted in error: " + e.getMessage());
    }
  }

  boolean evaluateBoolean(Environment environment, String text, Map<String, Object> inputs)
      throws ExpressionError {
    Object value = evaluate(environment, text, inputs);
    if (!(value instanceof Boolean)) {
      throw new ExpressionError(
          "expression '" + shown(text) + "' must evaluate to bool, not " + typeName(value));
    }
    return (Boolean) value;
  }

  /**
   * Why the expression could not be stored, as compile.go ({@code CompileCELExpression}) words it:
   * it does not compile, or its type is known and is not {@code expected} (null: any type). Empty
   * when it compiles. A {@code dyn} result passes: every input is {@code dyn} here, where the API
   * server knows the type of {@code request} and of the variables, so only a definite mismatch (a
   * string where a bool is needed) is caught at this point.
   */
  Optional<String> storageError(Environment environment, String text, CelKind expected) {
    Compiled program = compiled.computeIfAbsent(new Key(environment, text), this::compile);
    if (program.error() != null) {
      return Optional.of("compilation failed: " + program.error());
    }
    CelKind actual = program.resultType().kind();
    if (expected == null || actual == expected || actual.isDyn() || actual == CelKind.ANY) {
      return Optional.empty();
    }
    return Optional.of(
        "must evaluate to "
            + expected.name().toLowerCase(java.util.Locale.ROOT)
            + " but got "
            + program.resultType().name());
  }

  /** The expression on one line, as messages show it. */
  static String shown(String text) {
    return text.strip().replaceAll("\\s+", " ");
  }

  /** How many distinct expressions were compiled: each text once per environment. */
  int compilations() {
    return compiled.size();
  }

  private Compiled compile(Key key) {
    CelCompiler compiler =
        key.environment() == Environment.MATCH_CONDITION
            ? matchConditionCompiler
            : validationCompiler;
    CelValidationResult result = compiler.compile(key.text());
    if (result.hasError()) {
      // The first line names the error; the next ones draw the expression with a caret.
      return new Compiled(
          null, null, result.getErrorString().lines().findFirst().orElse("invalid"));
    }
    try {
      CelAbstractSyntaxTree ast = result.getAst();
      return new Compiled(runtime.createProgram(ast), ast.getResultType(), null);
    } catch (Exception e) {
      return new Compiled(null, null, e.getMessage());
    }
  }

  private static String typeName(Object value) {
    return value == null ? "null" : value.getClass().getSimpleName();
  }
}
