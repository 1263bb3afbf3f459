package io.kuik.model.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * The {@code auth} of an entry: exactly one of {@code secretRef} or {@code provider}. {@code
 * injectPullSecret} stays {@code null} when not written; its default depends on the form (true for
 * a secretRef, false for a provider) and is applied by {@link io.kuik.model.RoutingResources}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@ValidationRule(
    value = "has(self.secretRef) != has(self.provider)",
    message = "auth must set exactly one of secretRef or provider")
public record AuthSpec(
    @JsonPropertyDescription("A Secret in the namespace kuik is installed in.")
        SecretRefSpec secretRef,
    @Size(min = 1, max = 253)
        @JsonPropertyDescription(
            "A credential provider plugin of the chart's providers, by name: the syncer mints the"
                + " credential with it and keeps it valid.")
        String provider,
    @JsonPropertyDescription(
            "Whether pods routed through this entry get the credential in their"
                + " imagePullSecrets. Defaults to true for secretRef, false for provider.")
        Boolean injectPullSecret) {}
