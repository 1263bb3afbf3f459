package io.kuik.model;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * When a routing resource rewrites a container's image (docs/behaviour.md#routing-resources,
 * docs/behaviour.md#where-a-secret-lands): {@code Always} routes before the original is tried,
 * {@code OnFailure} (the default) only when the original is not available, {@code None}
 * (ImageMirror only) never routes at all.
 */
public enum RewritePolicy {
  ALWAYS("Always"),
  ON_FAILURE("OnFailure"),
  NONE("None");

  /** The policy of a resource whose {@code spec.rewritePolicy} is absent. */
  public static final RewritePolicy DEFAULT = ON_FAILURE;

  private final String value;

  RewritePolicy(String value) {
    this.value = value;
  }

  /** The value as written in {@code spec.rewritePolicy}, e.g. {@code OnFailure}. */
  public String value() {
    return value;
  }

  /**
   * The policy written as {@code value}, matched case-sensitively as the API server does; {@code
   * null} (the field is absent) gives {@link #DEFAULT}.
   *
   * @throws IllegalArgumentException naming the valid values when {@code value} is none of them
   */
  public static RewritePolicy parse(String value) {
    if (value == null) {
      return DEFAULT;
    }
    for (RewritePolicy policy : values()) {
      if (policy.value.equals(value)) {
        return policy;
      }
    }
    throw new IllegalArgumentException(
        "unknown rewritePolicy \""
            + value
            + "\": use one of "
            + Arrays.stream(values()).map(RewritePolicy::value).collect(Collectors.joining(", ")));
  }
}
