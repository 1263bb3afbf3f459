package io.kuik.image;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs the image's entrypoint inside its own unpacked root filesystem, as a container runtime would
 * and without one: a private mount namespace ({@code unshare --mount}) where the root is
 * bind-mounted read-only, with {@code /proc}, {@code /dev} and an empty writable {@code /tmp}; then
 * {@code unshare --root --wd --setuid --setgid} enters it as the image's user, with the image's
 * environment and nothing else. Needs root (mounts, chroot) and util-linux; {@link #whyNot()} says
 * what is missing, so tests can skip.
 */
final class ImageRoot {

  /** Exit code of the mount script when the root could be written: never the entrypoint's. */
  static final int ROOT_WRITABLE = 97;

  private static final String MOUNTS =
      String.join(
          "\n",
          "set -eu",
          "root=\"$1\"; shift",
          "mount --make-rprivate /",
          "mount --bind \"$root\" \"$root\"",
          "mount -t proc proc \"$root/proc\"",
          "mount -t tmpfs -o mode=1777,size=64m tmpfs \"$root/tmp\"",
          "mount --rbind /dev \"$root/dev\"",
          "mount -o remount,bind,ro \"$root\"",
          "if touch \"$root/.writable\" 2>/dev/null; then",
          "  echo 'the image root is writable' >&2; exit " + ROOT_WRITABLE,
          "fi",
          "exec \"$@\"");

  private final ImageArchive image;

  ImageRoot(ImageArchive image) {
    this.image = image;
  }

  /** Null when this machine can run the root, else why not and what to do. */
  static String whyNot() {
    for (String tool : List.of("unshare", "mount", "env", "sh")) {
      if (onPath(tool).isEmpty()) {
        return tool + " is not on the PATH (util-linux, coreutils): the image is not run";
      }
    }
    try {
      Process probe = new ProcessBuilder("unshare", "--mount", "true").start();
      if (!probe.waitFor(10, TimeUnit.SECONDS) || probe.exitValue() != 0) {
        return "unshare --mount is refused here (it needs root, or CAP_SYS_ADMIN): run the image"
            + " tests as root, as CI does";
      }
    } catch (IOException | InterruptedException e) {
      return "cannot run unshare: " + e.getMessage();
    }
    return null;
  }

  /**
   * The image's entrypoint with {@code args}, in its root, as its user, with its environment plus
   * {@code extraEnvironment}. Output and errors go to {@code log}.
   */
  Process start(List<String> args, Map<String, String> extraEnvironment, Path log)
      throws IOException {
    String[] user = image.user().split(":", 2);
    Map<String, String> environment = new TreeMap<>(image.environment());
    // What runc adds when the image does not set it.
    environment.putIfAbsent("HOME", "/home/nonroot");
    environment.putAll(extraEnvironment);

    List<String> command =
        new ArrayList<>(
            List.of(
                path("unshare"),
                "--mount",
                "--fork",
                "sh",
                "-c",
                MOUNTS,
                "sh",
                image.root().toString(),
                path("env"),
                "-i"));
    environment.forEach((name, value) -> command.add(name + "=" + value));
    command.addAll(
        List.of(
            path("unshare"),
            "--root=" + image.root(),
            "--wd=" + image.workingDirectory(),
            "--setuid=" + user[0],
            "--setgid=" + (user.length > 1 ? user[1] : user[0])));
    command.addAll(image.entrypoint());
    command.addAll(args);
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /** Runs to the end (at most a minute) and returns the exit code; the output is in {@code log}. */
  int run(List<String> args, Path log) throws IOException, InterruptedException {
    Process process = start(args, Map.of(), log);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      stop(process);
      throw new AssertionError("the image did not finish in 60 s: " + Files.readString(log));
    }
    return process.exitValue();
  }

  /**
   * Sends SIGTERM to the entrypoint's process (the outer {@code unshare} ignores it and waits for
   * its child) and returns the exit code the entrypoint ended with.
   */
  static int stop(Process process) throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroy);
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError("the image's process did not stop within 30 s of SIGTERM");
    }
    return process.exitValue();
  }

  private static String path(String tool) {
    return onPath(tool)
        .orElseThrow(() -> new IllegalStateException(tool + " not found"))
        .toString();
  }

  private static Optional<Path> onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String directory : path.split(File.pathSeparator)) {
      Path candidate = Path.of(directory, tool);
      if (!directory.isEmpty() && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
