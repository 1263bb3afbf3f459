package io.kuik.model.crd;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The values of {@code spec.rewritePolicy} as the schema lists them in its {@code enum}; the field
 * itself is a string (see {@link ImageAlternativeSpec}). The domain's {@link
 * io.kuik.model.RewritePolicy} gives them meaning; a test keeps the two lists equal, and this one
 * exists only so that the wire format does not depend on the domain.
 */
enum RewritePolicyValues {
  @JsonProperty("Always")
  ALWAYS,
  @JsonProperty("OnFailure")
  ON_FAILURE,
  @JsonProperty("None")
  NONE
}
