package io.kuik.model;

import java.util.Map;
import java.util.Optional;

/**
 * The namespace label {@code kuik.enix.io/pull-secrets-override}, read by the syncer's targeting
 * and the webhook alike: {@code "true"} makes every syncer instance serve the namespace, {@code
 * "false"} makes every instance ignore it and the webhook add no pull-secret reference there. Any
 * other value reads as unset (the targeting table has only those two).
 */
public final class PullSecretsOverride {

  public static final String LABEL = "kuik.enix.io/pull-secrets-override";

  private PullSecretsOverride() {}

  /** The override that {@code namespaceLabels} (possibly null) carry, if any. */
  public static Optional<Boolean> of(Map<String, String> namespaceLabels) {
    String value = namespaceLabels == null ? null : namespaceLabels.get(LABEL);
    if ("true".equals(value)) {
      return Optional.of(true);
    }
    if ("false".equals(value)) {
      return Optional.of(false);
    }
    return Optional.empty();
  }
}
