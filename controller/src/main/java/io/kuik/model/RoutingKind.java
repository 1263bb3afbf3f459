package io.kuik.model;

import java.util.Locale;

/**
 * The two kinds of routing resource that can send a container to another registry
 * (docs/behaviour.md#routing-resources). The lower-cased kind is part of every injected Secret's
 * name (docs/behaviour.md#secret-names), so it is fixed here once for the webhook and the syncer
 * alike.
 */
public enum RoutingKind {
  IMAGE_ALTERNATIVE("ImageAlternative"),
  IMAGE_MIRROR("ImageMirror");

  private final String kind;

  RoutingKind(String kind) {
    this.kind = kind;
  }

  /** The Kubernetes kind, e.g. {@code ImageAlternative}. */
  public String kind() {
    return kind;
  }

  /** The kind lower-cased, e.g. {@code imagealternative}, as it appears in Secret names. */
  public String lowerName() {
    return kind.toLowerCase(Locale.ROOT);
  }
}
