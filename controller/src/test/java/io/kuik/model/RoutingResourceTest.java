package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RoutingResourceTest {

  private static final ResourceId ALTERNATIVE =
      new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  private static final ResourceId MIRROR = new ResourceId(RoutingKind.IMAGE_MIRROR, "prod-mirror");

  @Test
  void servesAnImageFromTheFirstMatchingEntryInDeclaredOrder()
      throws InvalidImageReferenceException {
    Entry exact = new Entry(0, EntryForm.REPOSITORY, "docker.io/library/nginx", null);
    Entry other = new Entry(1, EntryForm.REPOSITORY, "quay.io/acme/foo", null);
    Entry sameAgain = new Entry(2, EntryForm.REPOSITORY, "docker.io/nginx", null);
    RoutingResource resource = alternative(RewritePolicy.ON_FAILURE, exact, other, sameAgain);

    assertEquals(Optional.of(exact), resource.entryFor(ImageReference.parse("nginx:1.27")));
    assertEquals(
        Optional.of(other),
        resource.entryFor(ImageReference.parse("quay.io/acme/foo@" + digest())));
    assertEquals(
        Optional.empty(), resource.entryFor(ImageReference.parse("quay.io/acme/foo-bar:1")));
  }

  @Test
  void injectsWhenAnyEntryInjects() {
    Entry open = new Entry(0, EntryForm.REPOSITORY_GROUP, "docker.io/library", null);
    Entry provider = new Entry(1, EntryForm.REPOSITORY_GROUP, "quay.io/acme", Auth.provider("ecr"));
    Entry secret =
        new Entry(2, EntryForm.REPOSITORY_GROUP, "registry.example.com/acme", Auth.secretRef("p"));

    assertFalse(alternative(RewritePolicy.ALWAYS, open, provider).injectsAny());
    assertTrue(alternative(RewritePolicy.ALWAYS, open, provider, secret).injectsAny());
  }

  @Test
  void selectsPodsAndNamespacesWithItsSelectors() {
    RoutingResource resource =
        new RoutingResource(
            MIRROR,
            "uid-1",
            null,
            new LabelSelectorBuilder().addToMatchLabels("tier", "prod").build(),
            RewritePolicy.ALWAYS,
            List.of(new Entry(0, EntryForm.MIRROR, "registry.example.com/mirror/", null)));

    assertTrue(resource.selectsPod(Map.of()), "no podSelector selects every pod");
    assertTrue(resource.selectsNamespace(Map.of("tier", "prod")));
    assertFalse(resource.selectsNamespace(Map.of("tier", "dev")));
  }

  @Test
  void refusesShapesThatValidationWouldHaveReported() {
    Entry repository = new Entry(0, EntryForm.REPOSITORY, "quay.io/acme/foo", null);
    Entry group = new Entry(1, EntryForm.REPOSITORY_GROUP, "quay.io/acme", null);
    Entry mirror = new Entry(0, EntryForm.MIRROR, "registry.example.com/mirror/", null);

    assertThrows(IllegalArgumentException.class, () -> alternative(RewritePolicy.ALWAYS));
    assertThrows(IllegalArgumentException.class, () -> alternative(RewritePolicy.NONE, repository));
    assertThrows(
        IllegalArgumentException.class, () -> alternative(RewritePolicy.ALWAYS, repository, group));
    assertThrows(IllegalArgumentException.class, () -> alternative(RewritePolicy.ALWAYS, mirror));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new RoutingResource(MIRROR, null, null, null, RewritePolicy.NONE, List.of(repository)));
  }

  private static RoutingResource alternative(RewritePolicy policy, Entry... entries) {
    return new RoutingResource(ALTERNATIVE, null, null, null, policy, List.of(entries));
  }

  private static String digest() {
    return "sha256:" + "ab".repeat(32);
  }
}
