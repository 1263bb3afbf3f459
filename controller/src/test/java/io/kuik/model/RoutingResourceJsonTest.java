package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Any shape an API server without kuik's CRD schema can store reads as a resource, valid or
 * invalid, never as an exception: an exception here would stop the informer that read it.
 */
class RoutingResourceJsonTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String GOOD_ENTRY = "{\"repository\":\"quay.io/acme/nginx\"}";

  @ParameterizedTest(name = "if spec is {1}, expect the problem at {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "ImageAlternative|{\"alternatives\":\"oops\"}|spec.alternatives|is a string (\"oops\")"
            + " where the CRD expects a list",
        "ImageAlternative|\"oops\"|spec|is a string (\"oops\") where the CRD expects an object",
        "ImageAlternative|[1,2]|spec|is a list where the CRD expects an object",
        "ImageAlternative|{\"alternatives\":[\"quay.io/x\"]}|spec.alternatives[0]|is a string",
        "ImageAlternative|{\"alternatives\":[{\"repository\":{\"a\":1}}]}"
            + "|spec.alternatives[0].repository|is an object where the CRD expects a string",
        "ImageAlternative|{\"alternatives\":[{\"repository\":\"quay.io/a/b\",\"auth\":"
            + "{\"secretRef\":{\"name\":\"s\"},\"injectPullSecret\":\"yes\"}}]}"
            + "|spec.alternatives[0].auth.injectPullSecret|where the CRD expects true or false",
        "ImageAlternative|{\"rewritePolicy\":[\"Always\"],\"alternatives\":["
            + GOOD_ENTRY
            + "]}"
            + "|spec.rewritePolicy|is a list where the CRD expects a string",
        "ImageAlternative|{\"podSelector\":{\"matchLabels\":\"app=web\"},\"alternatives\":["
            + GOOD_ENTRY
            + "]}|spec.podSelector.matchLabels|where the CRD expects an object",
        "ImageAlternative|{\"namespaceSelector\":{\"matchExpressions\":{}},\"alternatives\":["
            + GOOD_ENTRY
            + "]}|spec.namespaceSelector.matchExpressions|is an object where the CRD expects a list",
        "ImageAlternative|null|spec|is required",
        "ImageAlternative|{}|spec.alternatives|must list at least one alternative",
        "ImageAlternative|{\"alternatives\":[null]}|spec.alternatives[0]|is empty",
        "ImageMirror|{\"destination\":\"quay.io/mirror\"}|spec.destination|is a string",
        "ImageMirror|{\"destination\":{\"path\":true}}|spec.destination.path|"
            + "\"true\" does not start with a registry host",
        "ImageMirror|{\"destination\":{\"path\":\"quay.io/m\",\"pull\":[]}}"
            + "|spec.destination.pull|is a list where the CRD expects an object",
      })
  void aMalformedSpecIsAnInvalidResourceNamingTheField(
      String kind, String spec, String field, String says) {
    Validated read = read(kind, spec);

    Validated.Invalid invalid = assertInstanceOf(Validated.Invalid.class, read, read.toString());
    assertEquals("bad", invalid.id().name());
    Problem problem = invalid.problems().get(0);
    assertEquals(field, problem.field(), invalid.problems().toString());
    assertTrue(problem.message().contains(says), problem.message());
  }

  @ParameterizedTest(name = "if the resource carries {0}, expect it valid")
  @CsvSource(
      delimiter = '|',
      value = {
        "an unknown field|{\"alternatives\":[" + GOOD_ENTRY + "],\"colour\":{\"deep\":[1]}}",
        "an unknown field in an entry|{\"alternatives\":[{\"repository\":\"quay.io/a/b\",\"x\":1}]}",
      })
  void unknownFieldsAreIgnored(String what, String spec) {
    assertInstanceOf(Validated.Valid.class, read("ImageAlternative", spec));
  }

  @ParameterizedTest(name = "if {0}, expect a readable problem")
  @CsvSource(
      delimiter = '|',
      value = {
        "a huge string|spec.alternatives[0].repository",
        "a number as the policy|spec.rewritePolicy",
      })
  void hugeAndOddScalarsAreProblemsNotFailures(String what, String field) {
    String spec =
        what.equals("a huge string")
            ? "{\"alternatives\":[{\"repository\":\"quay.io/" + "a".repeat(1_000_000) + "\"}]}"
            : "{\"rewritePolicy\":42,\"alternatives\":[" + GOOD_ENTRY + "]}";

    Validated.Invalid invalid =
        assertInstanceOf(Validated.Invalid.class, read("ImageAlternative", spec));

    assertEquals(field, invalid.problems().get(0).field());
  }

  @ParameterizedTest(name = "if the quoted value is {0} characters, expect at most 64 quoted")
  @CsvSource({"10", "1000"})
  void aQuotedValueIsCut(int length) {
    Validated.Invalid invalid =
        assertInstanceOf(
            Validated.Invalid.class,
            read("ImageAlternative", "{\"alternatives\":\"" + "x".repeat(length) + "\"}"));

    String message = invalid.problems().get(0).message();
    assertTrue(message.length() < 250, message);
  }

  private static Validated read(String kind, String spec) {
    JsonNode object =
        JSON.readTree(
            "{\"apiVersion\":\"kuik.enix.io/v1alpha1\",\"kind\":\""
                + kind
                + "\",\"metadata\":{\"name\":\"bad\"},\"spec\":"
                + spec
                + "}");
    RoutingKind routingKind =
        kind.equals("ImageMirror") ? RoutingKind.IMAGE_MIRROR : RoutingKind.IMAGE_ALTERNATIVE;
    return RoutingResourceJson.validate(routingKind, object);
  }
}
