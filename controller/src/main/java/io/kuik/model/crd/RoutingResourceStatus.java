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
                + " not. CredentialsAccepted: whether the registries accept the credentials its"
                + " entries inject. ProviderCredentialsValid: whether each provider entry has a"
                + " minted credential with more than minValidity left.")
        List<Condition> conditions,
    @JsonPropertyDescription(
            "What each registry answered when the secret-syncer tried the credential of an"
                + " injecting entry for a pull, ahead of any pod.")
        List<CredentialStatus> credentials) {

  /**
   * One injecting entry's credential, as its registry last answered a trial of it.
   *
   * @param entry the entry's path as written (its key in the Secret's auths)
   * @param registry where it was tried
   * @param outcome Accepted, Refused, Unreachable or NotTriedYet
   * @param answer the registry's answer, never a credential
   * @param lastTryTime when it was last tried; absent when not yet
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record CredentialStatus(
      @JsonPropertyDescription("The entry's path as written, its key in the Secret's auths.")
          String entry,
      @JsonPropertyDescription("The registry the credential was tried on.") String registry,
      @JsonPropertyDescription("Accepted, Refused, Unreachable or NotTriedYet.") String outcome,
      @JsonPropertyDescription("What the registry answered; never a credential.") String answer,
      @JsonPropertyDescription("When the credential was last tried.") String lastTryTime) {}

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

  /** printer-column path of the CredentialsAccepted condition's status */
  static final String CREDENTIALS_STATUS_PATH =
      ".status.conditions[?(@.type==\"CredentialsAccepted\")].status";

  static final String NAMESPACES_PATH = ".status.secretNamespaces";
}
