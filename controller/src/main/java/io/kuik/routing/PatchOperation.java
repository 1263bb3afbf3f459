package io.kuik.routing;

import java.util.Objects;

/**
 * One operation of an RFC 6902 JSON Patch. {@code value} is a String, a Map or a List that
 * serializes to the JSON value.
 */
public record PatchOperation(String op, String path, Object value) {

  public PatchOperation {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(path, "path");
  }

  public static PatchOperation add(String path, Object value) {
    return new PatchOperation("add", path, value);
  }

  public static PatchOperation replace(String path, Object value) {
    return new PatchOperation("replace", path, value);
  }
}
