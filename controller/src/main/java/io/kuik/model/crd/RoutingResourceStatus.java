package io.kuik.model.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * {@code status} of an ImageAlternative or ImageMirror: written by the secret-syncer alone, on the
 * status subresource (docs/decisions/0011-status-of-routing-resources.md). The controllers never
 * read it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RoutingResourceStatus(
    @JsonPropertyDescription("The metadata.generation this status was decided from.")
        Long observedGeneration,
    @JsonPropertyDescription(
            "In how many namespaces the secret-syncer's last apply of this resource's Secret"
                + " holds a credential.")
        Integer secretNamespaces,
    @JsonPropertyDescription(
            "Valid: whether the controllers can use this resource; reason and message say why"
                + " not.")
        List<Condition> conditions) {

  /** The condition type that says whether the resource is valid. */
  public static final String VALID = "Valid";

  /**
   * The condition type that says whether the registries accept the credentials the resource's
   * entries inject: True, False (a registry refused one) or Unknown (not tried, or unreachable).
   */
  public static final String CREDENTIALS_ACCEPTED = "CredentialsAccepted";

  /** printer-column path of the Valid condition's status */
  static final String VALID_STATUS_PATH = ".status.conditions[?(@.type==\"Valid\")].status";

  static final String VALID_REASON_PATH = ".status.conditions[?(@.type==\"Valid\")].reason";

  static final String NAMESPACES_PATH = ".status.secretNamespaces";
}
