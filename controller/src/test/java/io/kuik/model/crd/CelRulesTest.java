package io.kuik.model.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kuik.model.Problem;
import io.kuik.model.RoutingResources;
import io.kuik.model.Validated;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The regular expressions of the CEL rules against the controllers' own parser: admission never
 * refuses a path the controllers accept, and both refuse the tags, digests and missing hosts that
 * the rules exist for. CEL's {@code matches} is an unanchored RE2 search, which {@link
 * java.util.regex.Matcher#find()} reproduces for these expressions.
 */
class CelRulesTest {

  @ParameterizedTest(name = "if {0} is written as {1}, expect admission={2}, controllers={2}")
  @CsvSource({
    "repository, quay.io/acme/foo, true",
    "repository, docker.io/library/nginx, true",
    "repository, localhost:5000/acme/foo, true",
    "repository, localhost/foo, true",
    "repository, 10.0.0.1:5000/foo, true",
    "repository, quay.io/acme/foo:1.2, false",
    "repository, quay.io/acme/foo:latest, false",
    "repository, quay.io/acme/foo@sha256:abc, false",
    "repository, localhost:5000/foo:v1, false",
    "repository, nginx:1.27, false",
    "repository, nginx, false",
    "repository, acme/foo, false",
    "repository, quay.io, false",
    "repository, localhost:5000, false",
    "repositoryGroup, docker.io/library, true",
    "repositoryGroup, quay.io, true",
    "repositoryGroup, localhost:5000, true",
    "repositoryGroup, localhost:5000/team, true",
    "repositoryGroup, library, false",
    "repositoryGroup, acme/team, false",
    "repositoryGroup, quay.io/acme:1, false",
    "repositoryGroup, quay.io/acme@sha256:abc, false",
    "repositoryGroup, nginx:latest, false",
    "path, registry.example.com/mirror/, true",
    "path, registry.example.com/mirror, true",
    "path, registry.example.com/, true",
    "path, localhost:5000/, true",
    "path, localhost:5000, true",
    "path, mirror/, false",
    "path, mirror/sub/, false",
    "path, registry.example.com/mirror:v1, false",
    "path, registry.example.com/mirror@sha256:abc, false",
    "path, registry:v1, false",
  })
  void admissionAndControllersAgreeOnTagsDigestsAndHosts(
      String field, String value, boolean accepted) {
    assertEquals(accepted, admits(field, value), "admission");
    assertEquals(accepted, problemsOf(field, value).isEmpty(), () -> "controllers");
  }

  @ParameterizedTest(name = "if {0} is written as {1}, expect admission to refuse nothing more")
  @CsvSource({
    "repository, quay.io/Acme/foo",
    "repository, quay.io/acme//foo",
    "repositoryGroup, quay.io/acme/",
    "repositoryGroup, bad_host.io/acme",
    "path, registry.example.com//",
  })
  void leavesTheFinerGrammarToTheControllers(String field, String value) {
    assertTrue(admits(field, value), "the CEL rules only check tags, digests and hosts");
    assertFalse(problemsOf(field, value).isEmpty(), "the controllers check the whole grammar");
  }

  private static boolean admits(String field, String value) {
    boolean hasTagOrDigest = Pattern.compile(CelRules.TAG_OR_DIGEST).matcher(value).find();
    String host =
        field.equals("repository") ? CelRules.HOST_AND_REPOSITORY : CelRules.STARTS_WITH_HOST;
    return !hasTagOrDigest && Pattern.compile(host).matcher(value).find();
  }

  private static List<Problem> problemsOf(String field, String value) {
    Validated validated;
    if (field.equals("path")) {
      ImageMirror mirror = new ImageMirror();
      mirror.setMetadata(new ObjectMetaBuilder().withName("m").build());
      mirror.setSpec(new ImageMirrorSpec(null, null, null, new DestinationSpec(value, null)));
      validated = RoutingResources.from(mirror);
    } else {
      ImageAlternative alternative = new ImageAlternative();
      alternative.setMetadata(new ObjectMetaBuilder().withName("a").build());
      AlternativeSpec entry =
          field.equals("repository")
              ? new AlternativeSpec(value, null, null)
              : new AlternativeSpec(null, value, null);
      alternative.setSpec(new ImageAlternativeSpec(null, null, null, List.of(entry)));
      validated = RoutingResources.from(alternative);
    }
    return validated instanceof Validated.Invalid
        ? ((Validated.Invalid) validated).problems()
        : List.of();
  }
}
