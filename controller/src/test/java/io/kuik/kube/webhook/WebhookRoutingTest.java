package io.kuik.kube.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.Entry;
import io.kuik.model.EntryForm;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.Problem;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import io.kuik.ports.RegistryProber;
import io.kuik.routing.RoutingIndex;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The webhook's index follows the routing resources as the informers deliver them. */
class WebhookRoutingTest {

  private static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  private static final ImageReference UPSTREAM = image("docker.io/acme/app:1.0");
  private static final ImageReference OTHER = image("quay.io/other/app:1.0");

  private final WebhookRouting routing = new WebhookRouting();

  static ImageReference image(String reference) {
    try {
      return ImageReference.parse(reference);
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static RegistryProber.Probe probe(String reference) {
    return RegistryProber.Probe.anonymous(image(reference));
  }

  /** ImageAlternative "acme": the given repository, and its copy on registry.example.com. */
  private static Validated alternative(String repository) {
    return new Validated.Valid(
        new RoutingResource(
            ACME,
            "uid-acme",
            null,
            null,
            RewritePolicy.ON_FAILURE,
            List.of(
                new Entry(0, EntryForm.REPOSITORY, repository, null),
                new Entry(1, EntryForm.REPOSITORY, "registry.example.com/acme/app", null))));
  }

  private List<ResourceId> covering(ImageReference image) {
    return routing.get().covering(image).stream().map(RoutingResource::id).toList();
  }

  @Test
  void anAddedResourceCoversItsImagesAndADeletedOneNoLonger() {
    assertTrue(covering(UPSTREAM).isEmpty(), "nothing known yet");

    routing.changed(alternative("docker.io/acme/app"));
    assertEquals(List.of(ACME), covering(UPSTREAM));

    routing.deleted(ACME);
    assertTrue(covering(UPSTREAM).isEmpty());
  }

  @Test
  void aChangedResourceReplacesItsOldVersion() {
    routing.changed(alternative("docker.io/acme/app"));

    routing.changed(alternative("quay.io/other/app"));

    assertTrue(covering(UPSTREAM).isEmpty(), "the old entry is gone");
    assertEquals(List.of(ACME), covering(OTHER));
    assertEquals(1, routing.valid());
  }

  @Test
  void aResourceThatTurnsInvalidRoutesNothingAndIsCounted() {
    routing.changed(alternative("docker.io/acme/app"));

    routing.changed(
        new Validated.Invalid(ACME, List.of(new Problem("spec.alternatives", "is required"))));

    assertTrue(covering(UPSTREAM).isEmpty());
    assertEquals(0, routing.valid());
    assertEquals(1, routing.invalid());
  }

  /** A resource with 20,000 bad entries once gave a 200,000-character log line. */
  @Test
  void anInvalidResourceIsLoggedWithItsProblemCountAndTheFirstProblemsOnly() {
    List<Problem> problems = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      problems.add(new Problem("spec.alternatives[" + i + "].repository", "is not an image"));
    }

    String line = WebhookRouting.describe(new Validated.Invalid(ACME, problems));

    assertTrue(line.length() < 800, line.length() + " characters");
    assertTrue(line.contains("20000 problems: spec.alternatives[0].repository"), line);
    assertTrue(line.contains("characters in all; kubectl get shows every problem"), line);
  }

  @Test
  void aFewProblemsAreLoggedWhole() {
    String line =
        WebhookRouting.describe(
            new Validated.Invalid(ACME, List.of(new Problem("spec.alternatives", "is required"))));

    assertTrue(line.endsWith(": 1 problem: spec.alternatives: is required"), line);
  }

  @Test
  void problemsOfExactlyTheShownLengthAreLoggedWholeAndOneMoreIsCut() {
    // "f: " and a message: the listing is exactly PROBLEMS_SHOWN characters long.
    String message = "x".repeat(WebhookRouting.PROBLEMS_SHOWN - 3);
    String whole =
        WebhookRouting.describe(new Validated.Invalid(ACME, List.of(new Problem("f", message))));
    String cut =
        WebhookRouting.describe(
            new Validated.Invalid(ACME, List.of(new Problem("f", message + "y"))));

    assertTrue(whole.endsWith(": 1 problem: f: " + message), whole);
    assertTrue(
        cut.endsWith(
            "(501 characters in all; kubectl get shows every problem in the Valid" + " condition)"),
        cut);
  }

  @Test
  void deletingAnUnknownResourceKeepsTheIndex() {
    routing.changed(alternative("docker.io/acme/app"));
    RoutingIndex before = routing.get();

    routing.deleted(new ResourceId(RoutingKind.IMAGE_MIRROR, "acme"));

    assertSame(before, routing.get());
  }
}
