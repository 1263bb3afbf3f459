package io.kuik.model.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** {@code spec.destination.pull} of an {@link ImageMirror}: how nodes pull from the mirror. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record PullSpec(
    @JsonPropertyDescription("The credential to pull from the mirror.") AuthSpec auth) {}
