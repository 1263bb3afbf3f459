package io.kuik.model.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * {@code spec.destination} of an {@link ImageMirror}: images are mirrored to {@code path} followed
 * by their normalized reference ({@code registry.example.com/mirror/docker.io/library/nginx:1.27}).
 *
 * <p>The rules on {@code path} sit on the type, see {@link AlternativeSpec}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@ValidationRule(
    value = "!has(self.path) || self.path.matches('" + CelRules.STARTS_WITH_HOST + "')",
    fieldPath = ".path",
    message = CelRules.STARTS_WITH_HOST_MESSAGE)
@ValidationRule(
    value = "!has(self.path) || !self.path.matches('" + CelRules.TAG_OR_DIGEST + "')",
    fieldPath = ".path",
    message =
        "must not have a tag or digest: it is a registry path, e.g. registry.example.com/mirror/")
public record DestinationSpec(
    @Required
        @Size(min = 1, max = 255)
        @JsonPropertyDescription(
            "Registry host and path the images are mirrored under, e.g."
                + " registry.example.com/mirror/.")
        String path,
    @JsonPropertyDescription("How nodes pull from the mirror.") PullSpec pull) {}
