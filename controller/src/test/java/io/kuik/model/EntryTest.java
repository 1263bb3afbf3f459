package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EntryTest {

  @ParameterizedTest(name = "if a {0} entry {1} sees {2}, expect remainder [{3}]")
  @CsvSource(
      value = {
        // One repository: exactly that repository, whatever the tag or digest.
        "REPOSITORY, quay.io/acme/foo, quay.io/acme/foo:1.2, ''",
        "REPOSITORY, quay.io/acme/foo, quay.io/acme/foo-bar:1.2, <none>",
        "REPOSITORY, quay.io/acme/foo, quay.io/acme/foo/bar:1.2, <none>",
        "REPOSITORY, quay.io/acme/foo, quay.io/acme:1, <none>",
        "REPOSITORY, docker.io/library/nginx, nginx:1.27, ''",
        "REPOSITORY, docker.io/nginx, nginx:1.27, ''",
        "REPOSITORY, index.docker.io/library/nginx, nginx, ''",
        "REPOSITORY, localhost:5000/foo, localhost:5000/foo:1, ''",
        "REPOSITORY, localhost:5000/foo, localhost:5001/foo:1, <none>",
        // A group: repositories exactly one segment below it.
        "REPOSITORY_GROUP, docker.io/library, nginx:1.27, nginx",
        "REPOSITORY_GROUP, docker.io/library, docker.io/library/a/b, <none>",
        "REPOSITORY_GROUP, docker.io/library, docker.io/library-x/nginx, <none>",
        "REPOSITORY_GROUP, quay.io/acme, quay.io/acme/foo, foo",
        "REPOSITORY_GROUP, quay.io/acme, quay.io/acmecorp/foo, <none>",
        "REPOSITORY_GROUP, quay.io, quay.io/foo, foo",
        "REPOSITORY_GROUP, index.docker.io/acme, acme/app, app",
        // A mirror: anything below its destination path.
        "MIRROR, registry.example.com/mirror/,"
            + " registry.example.com/mirror/docker.io/library/nginx:1.27, docker.io/library/nginx",
        "MIRROR, registry.example.com/mirror, registry.example.com/mirror/quay.io/acme/foo,"
            + " quay.io/acme/foo",
        "MIRROR, registry.example.com/mirror/, registry.example.com/mirrors/docker.io/x, <none>",
        "MIRROR, registry.example.com/mirror/, registry.example.com/mirror:1, <none>",
        "MIRROR, registry.example.com/, registry.example.com/docker.io/library/nginx,"
            + " docker.io/library/nginx",
      },
      nullValues = "<none>")
  void matchesByWholePathSegments(String form, String path, String image, String remainder)
      throws InvalidImageReferenceException {
    Entry entry = new Entry(0, EntryForm.valueOf(form), path, null);

    assertEquals(Optional.ofNullable(remainder), entry.remainderOf(ImageReference.parse(image)));
  }

  @ParameterizedTest(name = "if a {0} entry is written {1}, expect auths key {2}")
  @CsvSource({
    "REPOSITORY, quay.io/acme/foo, quay.io/acme/foo",
    "REPOSITORY, docker.io/nginx, docker.io/nginx",
    "REPOSITORY_GROUP, docker.io/library, docker.io/library",
    "MIRROR, registry.example.com/mirror/, registry.example.com/mirror",
    "MIRROR, registry.example.com/mirror, registry.example.com/mirror",
  })
  void keysItsCredentialByThePathAsWritten(String form, String path, String key) {
    assertEquals(key, new Entry(0, EntryForm.valueOf(form), path, null).authsKey());
  }

  @Test
  void namesTheFieldItIsWrittenIn() {
    assertEquals(
        "spec.alternatives[1]",
        new Entry(1, EntryForm.REPOSITORY_GROUP, "quay.io/acme", null).field());
    assertEquals(
        "spec.destination",
        new Entry(0, EntryForm.MIRROR, "registry.example.com/m/", null).field());
  }

  @Test
  void injectsWhenItsInjectionIsOn() {
    String path = "quay.io/acme/foo";

    assertTrue(new Entry(0, EntryForm.REPOSITORY, path, Auth.secretRef("pull")).injects());
    assertFalse(new Entry(0, EntryForm.REPOSITORY, path, new Auth("pull", null, false)).injects());
    assertTrue(new Entry(0, EntryForm.REPOSITORY, path, new Auth(null, "ecr", true)).injects());
    assertFalse(new Entry(0, EntryForm.REPOSITORY, path, Auth.provider("ecr")).injects());
    assertFalse(new Entry(0, EntryForm.REPOSITORY, path, null).injects());
  }

  @ParameterizedTest(name = "if a {0} entry is written {1}, expect a refusal")
  @CsvSource({
    "REPOSITORY, quay.io/acme/foo:1",
    "REPOSITORY, quay.io",
    "REPOSITORY, acme/foo",
    "REPOSITORY_GROUP, quay.io/acme/",
    "MIRROR, mirror/",
  })
  void refusesAPathThatIsNotARegistryPath(String form, String path) {
    assertThrows(
        IllegalArgumentException.class, () -> new Entry(0, EntryForm.valueOf(form), path, null));
  }
}
