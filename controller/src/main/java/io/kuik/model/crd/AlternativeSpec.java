package io.kuik.model.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * One entry of {@code spec.alternatives}: exactly one of {@code repository} or {@code
 * repositoryGroup}, each a registry host and a path with no tag or digest.
 *
 * <p>The rules on single fields sit on the type with a {@code fieldPath}: on a record component
 * they would reach both the field and its accessor, and the generator would emit them twice.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@ValidationRule(
    value = "has(self.repository) != has(self.repositoryGroup)",
    message = "an alternative must set exactly one of repository or repositoryGroup")
@ValidationRule(
    value = "!has(self.repository) || !self.repository.matches('" + CelRules.TAG_OR_DIGEST + "')",
    fieldPath = ".repository",
    message = CelRules.NO_TAG_OR_DIGEST_MESSAGE)
@ValidationRule(
    value =
        "!has(self.repository) || self.repository.matches('" + CelRules.HOST_AND_REPOSITORY + "')",
    fieldPath = ".repository",
    message = CelRules.HOST_AND_REPOSITORY_MESSAGE)
@ValidationRule(
    value =
        "!has(self.repositoryGroup) || !self.repositoryGroup.matches('"
            + CelRules.TAG_OR_DIGEST
            + "')",
    fieldPath = ".repositoryGroup",
    message = CelRules.NO_TAG_OR_DIGEST_MESSAGE)
@ValidationRule(
    value =
        "!has(self.repositoryGroup) || self.repositoryGroup.matches('"
            + CelRules.STARTS_WITH_HOST
            + "')",
    fieldPath = ".repositoryGroup",
    message = CelRules.STARTS_WITH_HOST_MESSAGE)
public record AlternativeSpec(
    @Size(min = 1, max = 255)
        @JsonPropertyDescription(
            "One repository, e.g. quay.io/acme/foo: images of that repository, any tag or digest.")
        String repository,
    @Size(min = 1, max = 255)
        @JsonPropertyDescription(
            "A path, e.g. docker.io/library: the repositories directly under it, any tag or"
                + " digest.")
        String repositoryGroup,
    @JsonPropertyDescription("The credential to pull from this alternative.") AuthSpec auth) {}
