package io.kuik.model.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;

/**
 * {@code spec} of an {@link ImageAlternative}, as written (docs/behaviour.md#routing-resources).
 * Every field may be {@code null} here; {@link io.kuik.model.RoutingResources} applies defaults and
 * refuses invalid shapes. {@code rewritePolicy} stays a string so that a value this version does
 * not know is reported, not a deserialization failure.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@ValidationRule(value = CelRules.NOT_NONE, message = CelRules.NOT_NONE_MESSAGE)
@ValidationRule(
    value =
        "!has(self.alternatives) || self.alternatives.all(a, has(a.repository))"
            + " || self.alternatives.all(a, has(a.repositoryGroup))",
    message =
        "all alternatives of one ImageAlternative use the same form, repository or"
            + " repositoryGroup: split them into two resources")
public record ImageAlternativeSpec(
    @JsonPropertyDescription("Pods this resource routes; absent or empty selects every pod.")
        LabelSelector podSelector,
    @JsonPropertyDescription(
            "Namespaces this resource routes in; absent or empty selects every namespace.")
        LabelSelector namespaceSelector,
    @Default("OnFailure")
        @SchemaFrom(type = RewritePolicyValues.class)
        @JsonPropertyDescription(
            "OnFailure (default): route only when the original image is not available. Always:"
                + " route before trying the original.")
        String rewritePolicy,
    @Required
        @Size(min = 1, max = ImageAlternativeSpec.MAX_ALTERNATIVES)
        @JsonPropertyDescription(
            "Where else the images can be pulled from, in order of preference.")
        List<AlternativeSpec> alternatives) {

  /** The most alternatives one resource may list: the CRD's maxItems, checked again by kuik. */
  public static final int MAX_ALTERNATIVES = 64;
}
