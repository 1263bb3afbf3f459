package io.kuik.kube;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The heap of another JVM right after a full GC, through the JDK's {@code jcmd}: what the harnesses
 * and the memory tests compare (public for the scale harness).
 */
public final class JvmHeap {

  private static final Pattern USED = Pattern.compile("used (\\d+)K");

  private JvmHeap() {}

  /**
   * Heap in use right after a full GC, in MiB: {@code jcmd <pid> GC.run}, then the used sizes of
   * {@code jcmd <pid> GC.heap_info}'s generations; negative when {@code jcmd} is missing.
   */
  public static double afterFullGcMiB(long pid) throws IOException, InterruptedException {
    Path jcmd = jcmd();
    if (!Files.isExecutable(jcmd)) {
      return -1;
    }
    run(pid, "GC.run");
    return usedKiB(run(pid, "GC.heap_info")) / 1024.0;
  }

  /** {@code jcmd <pid> <command>}'s answer. */
  public static String run(long pid, String command) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(jcmd().toString(), Long.toString(pid), command)
            .redirectErrorStream(true)
            .start();
    byte[] out = p.getInputStream().readAllBytes();
    p.waitFor(60, TimeUnit.SECONDS);
    return new String(out, StandardCharsets.UTF_8);
  }

  public static Path jcmd() {
    return Path.of(System.getProperty("java.home"), "bin", "jcmd");
  }

  /** The sum of the heap's spaces in use in a {@code GC.heap_info} answer (not metaspace). */
  public static long usedKiB(String heapInfo) {
    long used = 0;
    for (String line : heapInfo.split("\n")) {
      String trimmed = line.trim();
      boolean heap =
          trimmed.startsWith("garbage-first heap")
              || trimmed.startsWith("def new generation")
              || trimmed.startsWith("tenured generation")
              || trimmed.startsWith("PSYoungGen")
              || trimmed.startsWith("ParOldGen")
              || trimmed.startsWith("ZHeap");
      Matcher m = USED.matcher(trimmed);
      if (heap && m.find()) {
        used += Long.parseLong(m.group(1));
      }
    }
    return used;
  }
}
