package io.kuik.sim.world.object;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A label selector with the API server's semantics: requirements ANDed; {@code key=v} and {@code
 * key==v} need the label with that value; {@code key!=v} and {@code key notin (...)} also match
 * objects without the label; {@code key in (...)} needs the label; {@code key} and {@code !key}
 * test presence. The empty selector matches everything.
 */
public final class LabelSelector {

  /** One requirement of a selector. */
  public record Requirement(String key, Operator operator, List<String> values) {
    public Requirement {
      Objects.requireNonNull(key, "key");
      values = List.copyOf(new TreeSet<>(values));
    }

    boolean matches(Map<String, String> labels) {
      String value = labels.get(key);
      switch (operator) {
        case EQUALS:
        case IN:
          return value != null && values.contains(value);
        case NOT_EQUALS:
        case NOT_IN:
          return value == null || !values.contains(value);
        case EXISTS:
          return value != null;
        case DOES_NOT_EXIST:
          return value == null;
        default:
          throw new IllegalStateException(operator.name());
      }
    }

    @Override
    public String toString() {
      switch (operator) {
        case EQUALS:
          return key + "=" + values.get(0);
        case NOT_EQUALS:
          return key + "!=" + values.get(0);
        case IN:
          return key + " in (" + String.join(",", values) + ")";
        case NOT_IN:
          return key + " notin (" + String.join(",", values) + ")";
        case EXISTS:
          return key;
        default:
          return "!" + key;
      }
    }
  }

  /** The selector operators. */
  public enum Operator {
    EQUALS,
    NOT_EQUALS,
    IN,
    NOT_IN,
    EXISTS,
    DOES_NOT_EXIST
  }

  public static final LabelSelector EVERYTHING = new LabelSelector(List.of());

  private static final Pattern SET =
      Pattern.compile("^\\s*([^\\s!=(),]+)\\s+(in|notin)\\s*\\(([^)]*)\\)\\s*$");
  private static final Pattern EQUALITY =
      Pattern.compile("^\\s*([^\\s!=(),]+)\\s*(==|!=|=)\\s*([^\\s!=(),]*)\\s*$");
  private static final Pattern PRESENCE = Pattern.compile("^\\s*(!?)\\s*([^\\s!=(),]+)\\s*$");

  private final List<Requirement> requirements;

  public LabelSelector(List<Requirement> requirements) {
    this.requirements = List.copyOf(requirements);
  }

  public List<Requirement> requirements() {
    return requirements;
  }

  public boolean isEverything() {
    return requirements.isEmpty();
  }

  /**
   * Parses the query-string form ({@code app=x,tier in (a,b),!legacy}).
   *
   * @throws IllegalArgumentException for a malformed selector, as the API server's 400
   */
  public static LabelSelector parse(String text) {
    if (text == null || text.isBlank()) {
      return EVERYTHING;
    }
    List<Requirement> out = new ArrayList<>();
    for (String part : splitOutsideParentheses(text)) {
      out.add(requirement(part));
    }
    return new LabelSelector(out);
  }

  /** The metav1.LabelSelector form: {@code matchLabels} and {@code matchExpressions}. */
  public static LabelSelector of(JsonNode selector) {
    if (selector == null || selector.isNull() || selector.isMissingNode()) {
      return EVERYTHING;
    }
    List<Requirement> out = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : selector.path("matchLabels").properties()) {
      out.add(new Requirement(e.getKey(), Operator.EQUALS, List.of(e.getValue().asString())));
    }
    for (JsonNode expression : selector.path("matchExpressions")) {
      List<String> values = new ArrayList<>();
      expression.path("values").forEach(v -> values.add(v.asString()));
      String op = expression.path("operator").asString();
      Operator operator;
      switch (op) {
        case "In":
          operator = Operator.IN;
          break;
        case "NotIn":
          operator = Operator.NOT_IN;
          break;
        case "Exists":
          operator = Operator.EXISTS;
          break;
        case "DoesNotExist":
          operator = Operator.DOES_NOT_EXIST;
          break;
        default:
          throw new IllegalArgumentException(
              "\"" + op + "\" is not a valid label selector operator");
      }
      out.add(new Requirement(expression.path("key").asString(), operator, values));
    }
    return new LabelSelector(out);
  }

  public boolean matches(Map<String, String> labels) {
    for (Requirement r : requirements) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  public boolean matches(JsonNode object) {
    return matches(Meta.labels(object));
  }

  @Override
  public String toString() {
    return String.join(",", requirements.stream().map(Requirement::toString).toList());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LabelSelector other && other.requirements.equals(requirements);
  }

  @Override
  public int hashCode() {
    return requirements.hashCode();
  }

  private static Requirement requirement(String part) {
    Matcher set = SET.matcher(part);
    if (set.matches()) {
      List<String> values = new ArrayList<>();
      for (String v : set.group(3).split(",")) {
        if (!v.isBlank()) {
          values.add(v.strip());
        }
      }
      if (values.isEmpty()) {
        throw invalid(part, "for 'in', 'notin' operators, values set can't be empty");
      }
      Operator op = set.group(2).equals("in") ? Operator.IN : Operator.NOT_IN;
      return new Requirement(set.group(1), op, values);
    }
    Matcher eq = EQUALITY.matcher(part);
    if (eq.matches()) {
      Operator op = eq.group(2).equals("!=") ? Operator.NOT_EQUALS : Operator.EQUALS;
      return new Requirement(eq.group(1), op, List.of(eq.group(3)));
    }
    Matcher presence = PRESENCE.matcher(part);
    if (presence.matches()) {
      Operator op = presence.group(1).isEmpty() ? Operator.EXISTS : Operator.DOES_NOT_EXIST;
      return new Requirement(presence.group(2), op, List.of());
    }
    throw invalid(part, "unable to parse requirement");
  }

  private static IllegalArgumentException invalid(String part, String why) {
    return new IllegalArgumentException(
        "unable to parse requirement \"" + part.strip() + "\": " + why);
  }

  private static List<String> splitOutsideParentheses(String text) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    StringBuilder current = new StringBuilder();
    for (char c : text.toCharArray()) {
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      }
      if (c == ',' && depth == 0) {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    parts.add(current.toString());
    return parts;
  }
}
