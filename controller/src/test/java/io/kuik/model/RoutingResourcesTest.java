package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kuik.model.crd.AlternativeSpec;
import io.kuik.model.crd.AuthSpec;
import io.kuik.model.crd.DestinationSpec;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.ImageAlternativeSpec;
import io.kuik.model.crd.ImageMirror;
import io.kuik.model.crd.ImageMirrorSpec;
import io.kuik.model.crd.PullSpec;
import io.kuik.model.crd.SecretRefSpec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Conversion details that the example files do not show; the shapes refused are in {@link
 * RoutingResourceExamplesTest}.
 */
class RoutingResourcesTest {

  @Test
  void carriesIdentityUidAndSelectorsIntoTheDomain() {
    LabelSelector pods = new LabelSelectorBuilder().addToMatchLabels("app", "web").build();
    LabelSelector namespaces = new LabelSelectorBuilder().addToMatchLabels("tier", "prod").build();
    ImageMirror mirror = new ImageMirror();
    mirror.setMetadata(new ObjectMetaBuilder().withName("prod-mirror").withUid("u-42").build());
    mirror.setSpec(
        new ImageMirrorSpec(
            pods,
            namespaces,
            "Always",
            new DestinationSpec(
                "registry.example.com/mirror/",
                new PullSpec(new AuthSpec(new SecretRefSpec("mirror-read"), null, null)))));

    RoutingResource resource = valid(RoutingResources.from(mirror));

    assertEquals(new ResourceId(RoutingKind.IMAGE_MIRROR, "prod-mirror"), resource.id());
    assertEquals("u-42", resource.uid());
    assertSame(pods, resource.podSelector());
    assertSame(namespaces, resource.namespaceSelector());
    assertEquals(RewritePolicy.ALWAYS, resource.rewritePolicy());
    assertEquals(
        List.of(
            new Entry(
                0,
                EntryForm.MIRROR,
                "registry.example.com/mirror/",
                Auth.secretRef("mirror-read"))),
        resource.entries());
  }

  @Test
  void leavesAbsentSelectorsAbsentSoThatTheySelectEverything() {
    RoutingResource resource =
        valid(RoutingResources.from(alternative("a", null, repository("quay.io/acme/foo"))));

    assertNull(resource.podSelector());
    assertNull(resource.namespaceSelector());
    assertEquals(RewritePolicy.ON_FAILURE, resource.rewritePolicy());
    assertNull(resource.uid());
  }

  @Test
  void reportsAnEmptyAlternativeWithoutFailing() {
    Validated validated =
        RoutingResources.from(alternative("a", null, repository("quay.io/acme/foo"), null));

    assertEquals(
        List.of(
            new Problem("spec.alternatives[1]", "is empty: set a repository or a repositoryGroup")),
        assertInstanceOf(Validated.Invalid.class, validated).problems());
  }

  @Test
  void takesTheMostAlternativesTheCrdAllowsAndRefusesOneMoreWholeWithOneProblem() {
    AlternativeSpec[] most = new AlternativeSpec[ImageAlternativeSpec.MAX_ALTERNATIVES];
    for (int i = 0; i < most.length; i++) {
      most[i] = repository("quay.io/acme/app-" + i);
    }
    AlternativeSpec[] huge = new AlternativeSpec[10_000];
    for (int i = 0; i < huge.length; i++) {
      // Each would be a problem of its own: none is looked at.
      huge[i] = repository("quay.io/acme/app-" + i + ":with-a-tag");
    }

    assertEquals(64, valid(RoutingResources.from(alternative("a", null, most))).entries().size());
    assertEquals(
        List.of(
            new Problem(
                "spec.alternatives",
                "lists 10000 alternatives, at most 64 are allowed (the CRD's maxItems): kuik uses"
                    + " none of them")),
        assertInstanceOf(
                Validated.Invalid.class, RoutingResources.from(alternative("b", null, huge)))
            .problems());
  }

  @Test
  void reportsAResourceWithoutMetadataUnderAnEmptyName() {
    ImageAlternative resource = alternative("x", null, repository("quay.io/acme/foo"));
    resource.setMetadata(null);

    Validated.Invalid invalid =
        assertInstanceOf(Validated.Invalid.class, RoutingResources.from(resource));

    assertEquals(new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, ""), invalid.id());
    assertEquals(List.of(new Problem("metadata.name", "is required")), invalid.problems());
  }

  @ParameterizedTest(name = "if the name is {0}, expect it valid")
  @ValueSource(strings = {"a", "acme-foo", "acme.example.com", "0day"})
  void acceptsDns1123SubdomainNames(String name) {
    valid(RoutingResources.from(alternative(name, null, repository("quay.io/acme/foo"))));
  }

  @Test
  void acceptsANameOf253CharactersButNotLonger() {
    String longest =
        "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61);
    assertEquals(253, longest.length());

    valid(RoutingResources.from(alternative(longest, null, repository("quay.io/acme/foo"))));
    assertInstanceOf(
        Validated.Invalid.class,
        RoutingResources.from(alternative(longest + "d", null, repository("quay.io/acme/foo"))));
  }

  @ParameterizedTest(name = "if the name is {0}, expect it refused")
  @ValueSource(strings = {"Acme", "-acme", "acme-", "acme_foo", "acme..foo", "acme.", ".acme"})
  void refusesNamesThatAreNotDns1123Subdomains(String name) {
    Validated.Invalid invalid =
        assertInstanceOf(
            Validated.Invalid.class,
            RoutingResources.from(alternative(name, null, repository("quay.io/acme/foo"))));

    assertEquals("metadata.name", invalid.problems().get(0).field());
  }

  private static RoutingResource valid(Validated validated) {
    return assertInstanceOf(Validated.Valid.class, validated, () -> validated.toString())
        .resource();
  }

  private static AlternativeSpec repository(String repository) {
    return new AlternativeSpec(repository, null, null);
  }

  private static ImageAlternative alternative(
      String name, String policy, AlternativeSpec... alternatives) {
    ImageAlternative resource = new ImageAlternative();
    resource.setMetadata(new ObjectMetaBuilder().withName(name).build());
    resource.setSpec(new ImageAlternativeSpec(null, null, policy, Arrays.asList(alternatives)));
    return resource;
  }
}
