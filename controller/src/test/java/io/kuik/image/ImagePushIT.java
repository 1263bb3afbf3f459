package io.kuik.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kuik.webhook.LocalRegistry;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive goes into a registry as README says, with a daemonless client: skopeo copies it to a
 * real registry (Debian's docker-registry) on loopback, and reads the manifest back by digest.
 */
class ImagePushIT {

  static final String SKOPEO_HINT =
      "skopeo is not on the PATH: run .ci/install-image-tools.sh to push the image in its tests";

  @Test
  void skopeoPushesTheArchiveAndReadsTheSameManifestBackByDigest(@TempDir Path directory)
      throws Exception {
    LocalRegistry.assumeInstalled();
    assumeTrue(onPath("skopeo"), SKOPEO_HINT);
    ImageArchive image = ImageArchive.built();
    String digest = image.manifestDigest();

    try (LocalRegistry registry = LocalRegistry.start(directory, "pusher", "push-password")) {
      String repository = registry.host() + "/kuik-secret-syncer/kuik";
      skopeo(
          directory,
          "copy",
          "--dest-tls-verify=false",
          "--dest-creds=pusher:push-password",
          "oci-archive:" + image.archive(),
          "docker://" + repository + ":" + System.getProperty("kuik.image.version"));
      byte[] manifest =
          skopeo(
              directory,
              "inspect",
              "--raw",
              "--tls-verify=false",
              "--creds=pusher:push-password",
              "docker://" + repository + "@" + digest);

      System.out.println("[image] pushed to " + repository + "@" + digest);
      assertEquals(digest, "sha256:" + sha256(manifest), "the digest of what the registry serves");
      assertArrayEquals(Files.readAllBytes(image.blob(digest)), manifest);
    }
  }

  private static byte[] skopeo(Path directory, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("skopeo", "--insecure-policy"));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(directory, "skopeo", ".out");
    Path err = Files.createTempFile(directory, "skopeo", ".err");
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new AssertionError(
          String.join(" ", command)
              + " failed: "
              + Files.readString(err, StandardCharsets.UTF_8)
              + Files.readString(out, StandardCharsets.UTF_8));
    }
    return Files.readAllBytes(out);
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  private static boolean onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String directory : path.split(File.pathSeparator)) {
      if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, tool))) {
        return true;
      }
    }
    return false;
  }
}
