package io.kuik.sim.world.validation;

import java.util.ArrayList;
import java.util.List;

/**
 * Field errors, rendered as apimachinery renders them ({@code data[.dockerconfigjson]: Required
 * value}, {@code metadata.name: Invalid value: "X": ...}). Values shown are names and keys, never a
 * Secret's data.
 */
public final class FieldErrors {

  private final List<String> errors = new ArrayList<>();

  public void required(String path, String detail) {
    errors.add(path + ": Required value" + (detail.isEmpty() ? "" : ": " + detail));
  }

  public void invalid(String path, String value, String detail) {
    errors.add(path + ": Invalid value: \"" + value + "\": " + detail);
  }

  /** A value outside an enumeration: {@code Unsupported value: "x": supported values: "a", "b"}. */
  public void notSupported(String path, String value, List<String> supported) {
    StringBuilder quoted = new StringBuilder();
    for (String s : supported) {
      quoted.append(quoted.length() == 0 ? "" : ", ").append('"').append(s).append('"');
    }
    errors.add(
        path
            + ": Unsupported value: \""
            + value
            + "\""
            + (supported.isEmpty() ? "" : ": supported values: " + quoted));
  }

  public void duplicate(String path, String value) {
    errors.add(path + ": Duplicate value: \"" + value + "\"");
  }

  public void tooMany(String path, int actual, int max) {
    errors.add(path + ": Too many: " + actual + ": must have at most " + max + " items");
  }

  /**
   * An invalid value already rendered as apimachinery prints it ({@code "text"} quoted, numbers and
   * booleans bare, {@code null}), or none for objects and lists, whose value is omitted.
   */
  public void invalidRendered(String path, String renderedValue, String detail) {
    errors.add(
        path
            + ": Invalid value"
            + (renderedValue == null ? "" : ": " + renderedValue)
            + (detail.isEmpty() ? "" : ": " + detail));
  }

  public void forbidden(String path, String detail) {
    errors.add(path + ": Forbidden: " + detail);
  }

  public void tooLong(String path, long max) {
    errors.add(path + ": Too long: must have at most " + max + " bytes");
  }

  public void immutable(String path, String value) {
    invalid(path, value, "field is immutable");
  }

  public void addAll(FieldErrors other) {
    errors.addAll(other.errors);
  }

  public boolean isEmpty() {
    return errors.isEmpty();
  }

  /** In the order found, duplicates dropped, as ErrorList.ToAggregate does. */
  public List<String> list() {
    return errors.stream().distinct().toList();
  }
}
