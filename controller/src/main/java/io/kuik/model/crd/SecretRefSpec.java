package io.kuik.model.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** {@code auth.secretRef}: a Secret in the cluster resource namespace, by name. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SecretRefSpec(
    @Required
        @Size(min = 1, max = 253)
        @JsonPropertyDescription(
            "Name of a kubernetes.io/dockerconfigjson Secret in the namespace kuik is installed in.")
        String name) {}
