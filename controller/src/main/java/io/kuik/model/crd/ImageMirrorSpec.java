package io.kuik.model.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LabelSelector;

/**
 * {@code spec} of an {@link ImageMirror}, as written (docs/behaviour.md#routing-resources). Every
 * field may be {@code null} here; {@link io.kuik.model.RoutingResources} applies defaults and
 * refuses invalid shapes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ImageMirrorSpec(
    @JsonPropertyDescription("Pods this resource routes; absent or empty selects every pod.")
        LabelSelector podSelector,
    @JsonPropertyDescription(
            "Namespaces this resource routes in; absent or empty selects every namespace.")
        LabelSelector namespaceSelector,
    @Default("OnFailure")
        @SchemaFrom(type = RewritePolicyValues.class)
        @JsonPropertyDescription(
            "OnFailure (default): route only when the original image is not available. Always:"
                + " route before trying the original. None: copy only, never route.")
        String rewritePolicy,
    @Required @JsonPropertyDescription("Where the images are mirrored.")
        DestinationSpec destination) {}
