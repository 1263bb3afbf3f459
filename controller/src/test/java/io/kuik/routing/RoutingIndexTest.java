package io.kuik.routing;

import static io.kuik.routing.Fixtures.alternative;
import static io.kuik.routing.Fixtures.group;
import static io.kuik.routing.Fixtures.image;
import static io.kuik.routing.Fixtures.mirror;
import static io.kuik.routing.Fixtures.repository;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.model.Entry;
import io.kuik.model.ImageReference;
import io.kuik.model.Problem;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RoutingIndexTest {

  private static final String[] HOSTS = {
    "docker.io", "index.docker.io", "quay.io", "localhost:5000", "registry.example.com"
  };
  private static final String[] SEGMENTS = {"library", "acme", "nginx", "foo", "foo-bar", "a"};
  private static final RewritePolicy[] POLICIES = RewritePolicy.values();

  private static String path(Random random, int minDepth) {
    StringBuilder path = new StringBuilder(HOSTS[random.nextInt(HOSTS.length)]);
    int depth = minDepth + random.nextInt(3);
    for (int i = 0; i < depth; i++) {
      path.append('/').append(SEGMENTS[random.nextInt(SEGMENTS.length)]);
    }
    return path.toString();
  }

  private static RoutingResource randomResource(Random random, int n) {
    String name = "r" + n;
    if (random.nextInt(4) == 0) {
      return mirror(name, POLICIES[random.nextInt(3)], path(random, 0));
    }
    boolean groups = random.nextBoolean();
    List<Entry> entries = new ArrayList<>();
    int count = 1 + random.nextInt(3);
    for (int i = 0; i < count; i++) {
      entries.add(groups ? group(i, path(random, 0)) : repository(i, path(random, 1)));
    }
    return alternative(name, POLICIES[random.nextInt(2)], entries.toArray(new Entry[0]));
  }

  private static List<String> names(List<RoutingResource> resources) {
    return resources.stream()
        .map(r -> r.id().toString())
        .sorted(Comparator.naturalOrder())
        .toList();
  }

  @Test
  @Tag("slow") // left out of the mutation run (-Pmutation)
  void findsExactlyWhatALinearScanFinds() {
    findsWhatALinearScanFinds(new Random(20240611L), 200);
  }

  /** A few rounds of the same comparison, fast enough for every mutant of the mutation run. */
  @Test
  void findsWhatALinearScanFindsInAFewRounds() {
    findsWhatALinearScanFinds(new Random(20260101L), 8);
  }

  private static void findsWhatALinearScanFinds(Random random, int rounds) {
    for (int round = 0; round < rounds; round++) {
      List<RoutingResource> resources = new ArrayList<>();
      for (int n = 0; n < 30; n++) {
        resources.add(randomResource(random, n));
      }
      RoutingIndex index = RoutingIndex.of(resources);
      LinearCoverage scan = new LinearCoverage(resources);
      for (int i = 0; i < 50; i++) {
        ImageReference image =
            image(path(random, 1).replace("index.docker.io", "docker.io") + ":1");
        assertEquals(
            names(scan.covering(image)),
            names(index.covering(image)),
            "round " + round + ", image " + image);
        for (RoutingResource resource : resources) {
          for (Entry entry : resource.entries()) {
            assertEquals(
                entry.remainderOf(image).isPresent(),
                index.fallsUnder(entry, image),
                entry + " and " + image);
          }
        }
      }
    }
  }

  @ParameterizedTest(name = "if an entry is written {0} ({1}), expect key {2}")
  @CsvSource({
    "docker.io/nginx, REPOSITORY, docker.io/library/nginx",
    "index.docker.io/nginx, REPOSITORY, docker.io/library/nginx",
    "index.docker.io/acme/app, REPOSITORY, docker.io/acme/app",
    "docker.io/library, REPOSITORY_GROUP, docker.io/library",
    "index.docker.io, REPOSITORY_GROUP, docker.io",
    "quay.io/acme/foo, REPOSITORY, quay.io/acme/foo",
  })
  void keysEntriesAsImagesAreNormalized(String path, String form, String key) {
    Entry entry = new Entry(0, io.kuik.model.EntryForm.valueOf(form), path, null);

    assertEquals(key, RoutingIndex.key(entry));
  }

  @Test
  void indexesOnlyValidResources() {
    RoutingResource valid = mirror("ok", RewritePolicy.ALWAYS, "registry.example.com/m");
    Validated invalid =
        new Validated.Invalid(
            new ResourceId(RoutingKind.IMAGE_MIRROR, "broken"),
            List.of(new Problem("spec", "is required")));

    RoutingIndex index = RoutingIndex.ofValidated(List.of(new Validated.Valid(valid), invalid));

    assertEquals(List.of(valid), index.covering(image("nginx")));
    assertEquals(List.of(valid), index.resources());
  }
}
