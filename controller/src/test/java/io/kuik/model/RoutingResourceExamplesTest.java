package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.ImageMirror;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The example resources of src/test/resources/routing-resources parse into the typed classes, as
 * the informers will read them, and validate as each file's {@code # expect} comments say.
 */
class RoutingResourceExamplesTest {

  private static final Path EXAMPLES =
      Path.of(System.getProperty("basedir", "."), "src/test/resources/routing-resources");

  private static final KubernetesSerialization SERIALIZATION = serialization();

  private static KubernetesSerialization serialization() {
    KubernetesSerialization serialization = new KubernetesSerialization();
    serialization.registerKubernetesResource(ImageAlternative.class);
    serialization.registerKubernetesResource(ImageMirror.class);
    return serialization;
  }

  static Stream<Path> validExamples() throws IOException {
    return examples("valid");
  }

  static Stream<Path> invalidExamples() throws IOException {
    return examples("invalid");
  }

  private static Stream<Path> examples(String folder) throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES.resolve(folder))) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validExamples")
  void validExampleBecomesTheRoutingResourceItDescribes(Path file) throws IOException {
    String yaml = Files.readString(file, StandardCharsets.UTF_8);
    assertEquals(List.of("valid"), expectations(yaml, "expect"), "the file must say it is valid");

    Validated validated = validate(yaml);

    assertInstanceOf(Validated.Valid.class, validated, () -> "problems: " + validated);
    RoutingResource resource = ((Validated.Valid) validated).resource();
    assertEquals(
        expectations(yaml, "expect-policy"), List.of(resource.rewritePolicy().value()), "policy");
    List<String> entries = new ArrayList<>();
    for (Entry entry : resource.entries()) {
      entries.add(
          entry.index()
              + " "
              + entry.form()
              + " "
              + entry.authsKey()
              + " "
              + (entry.injects() ? "inject" : "no-inject"));
    }
    assertEquals(expectations(yaml, "expect-entry"), entries);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidExamples")
  void invalidExampleIsRefusedWithEveryProblemItHas(Path file) throws IOException {
    String yaml = Files.readString(file, StandardCharsets.UTF_8);
    Map<String, String> expected = new TreeMap<>();
    for (String expectation : expectations(yaml, "expect")) {
      int colon = expectation.indexOf(": ");
      expected.put(expectation.substring(0, colon), expectation.substring(colon + 2));
    }
    assertFalse(expected.isEmpty(), "the file must list the problems it expects");

    Validated validated = validate(yaml);

    assertInstanceOf(Validated.Invalid.class, validated, "expected problems " + expected);
    Map<String, String> found = new TreeMap<>();
    for (Problem problem : ((Validated.Invalid) validated).problems()) {
      found.merge(problem.field(), problem.message(), (a, b) -> a + " | " + b);
    }
    assertEquals(expected.keySet(), found.keySet(), () -> "problems: " + found);
    expected.forEach(
        (field, part) ->
            assertTrue(
                found.get(field).contains(part),
                () -> field + ": \"" + found.get(field) + "\" does not say \"" + part + "\""));
  }

  @Test
  void everyInvalidShapeHasAnExample() throws IOException {
    assertTrue(invalidExamples().count() >= 15, "a few invalid examples went missing");
  }

  private static Validated validate(String yaml) {
    HasMetadata resource = SERIALIZATION.unmarshal(yaml);
    if (resource instanceof ImageAlternative) {
      return RoutingResources.from((ImageAlternative) resource);
    }
    if (resource instanceof ImageMirror) {
      return RoutingResources.from((ImageMirror) resource);
    }
    throw new AssertionError("not a routing resource: " + resource.getClass());
  }

  /** The values of the {@code # <key>: value} comment lines, in order. */
  private static List<String> expectations(String yaml, String key) {
    String prefix = "# " + key + ": ";
    return yaml.lines()
        .filter(line -> line.startsWith(prefix))
        .map(line -> line.substring(prefix.length()).trim())
        .collect(Collectors.toList());
  }
}
