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
