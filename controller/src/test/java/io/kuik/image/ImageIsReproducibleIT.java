package io.kuik.image;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The image profile builds the image twice, each time from scratch (jlink, the Debian packages
 * unpacked, Jib), from the same inputs: the JDK, the downloaded packages, the jars. Both builds
 * must give the same bytes, so a digest says what was built.
 */
class ImageIsReproducibleIT {

  @Test
  void twoBuildsFromTheSameInputsGiveTheSameDigest() {
    ImageArchive first = ImageArchive.built();
    ImageArchive second = ImageArchive.builtAgain();
    System.out.println("[image] first build  " + first.manifestDigest());
    System.out.println("[image] second build " + second.manifestDigest());

    assertEquals(first.blobDigests(), second.blobDigests(), "config and layer digests");
    assertEquals(first.manifestDigest(), second.manifestDigest());
  }
}
