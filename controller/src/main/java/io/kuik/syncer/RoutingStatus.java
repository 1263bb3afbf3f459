package io.kuik.syncer;

import io.kuik.model.ResourceId;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.RoutingResourceStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code kubectl get} shows of a routing resource: the condition {@code Valid} (from the
 * validation: {@code reason} and {@code message} say why not), the generation it was decided from,
 * and in how many namespaces the syncer's last apply of its Secret holds a credential.
 */
public record RoutingStatus(
    ResourceId resource,
    long observedGeneration,
    boolean valid,
    String reason,
    String message,
    int secretNamespaces,
    Instant lastTransitionTime) {

  /** The routing kinds' API version. */
  public static final String API_VERSION = ImageAlternative.GROUP + "/" + ImageAlternative.VERSION;

  public RoutingStatus {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(lastTransitionTime, "lastTransitionTime");
    if (secretNamespaces < 0 || observedGeneration < 0) {
      throw new IllegalArgumentException("counts are never negative");
    }
  }

  /**
   * The body of the server-side apply: the object's identity and the status fields this manager
   * owns, the condition in metav1.Condition's shape.
   */
  public Map<String, Object> applyConfiguration() {
    Map<String, Object> condition = new LinkedHashMap<>();
    condition.put("type", RoutingResourceStatus.VALID);
    condition.put("status", valid ? "True" : "False");
    condition.put("observedGeneration", observedGeneration);
    condition.put("lastTransitionTime", lastTransitionTime.toString());
    condition.put("reason", reason);
    condition.put("message", message);
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("observedGeneration", observedGeneration);
    fields.put("secretNamespaces", secretNamespaces);
    fields.put("conditions", List.of(condition));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("apiVersion", API_VERSION);
    body.put("kind", resource.kind().kind());
    body.put("metadata", Map.of("name", resource.name()));
    body.put("status", fields);
    return body;
  }

  /** The same status but for the transition time: whether writing it would change anything. */
  public boolean sameAs(RoutingStatus other) {
    return other != null
        && resource.equals(other.resource)
        && observedGeneration == other.observedGeneration
        && valid == other.valid
        && reason.equals(other.reason)
        && message.equals(other.message)
        && secretNamespaces == other.secretNamespaces;
  }
}
