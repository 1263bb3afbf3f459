package io.kuik.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The heap of another JVM, once a second, from the JDK's {@code jstat -gc <pid> 1000}: used heap
 * (survivors, eden and old generation) and GC time, read from the target's perf counters without
 * stopping it. {@link #mark()} starts a window; {@link #maxUsedMiB()} and {@link #gcMillis()} cover
 * it. Without {@code jstat} beside the running {@code java}, every figure is negative (n/a).
 */
final class HeapSampler implements AutoCloseable {

  private final Process jstat;
  private volatile double usedKiB = -1;
  private volatile double gcSeconds = -1;
  private volatile double maxUsedKiB = -1;
  private double gcSecondsAtMark = -1;

  private HeapSampler(Process jstat) {
    this.jstat = jstat;
  }

  static HeapSampler of(long pid) throws IOException {
    Path tool = Path.of(System.getProperty("java.home"), "bin", "jstat");
    if (!Files.isExecutable(tool)) {
      return new HeapSampler(null);
    }
    Process process =
        new ProcessBuilder(tool.toString(), "-gc", Long.toString(pid), "1000")
            .redirectErrorStream(true)
            .start();
    HeapSampler sampler = new HeapSampler(process);
    Thread reader = new Thread(sampler::read, "jstat-" + pid);
    reader.setDaemon(true);
    reader.start();
    return sampler;
  }

  /** Starts a window: the highest heap use and the GC time are counted from now. */
  synchronized void mark() {
    maxUsedKiB = usedKiB;
    gcSecondsAtMark = gcSeconds;
  }

  /** The highest heap use seen since {@link #mark()}, in MiB; negative when unknown. */
  double maxUsedMiB() {
    return maxUsedKiB < 0 ? -1 : maxUsedKiB / 1024;
  }

  /** GC time since {@link #mark()}, in ms; negative when unknown. */
  double gcMillis() {
    return gcSeconds < 0 || gcSecondsAtMark < 0 ? -1 : (gcSeconds - gcSecondsAtMark) * 1000;
  }

  @Override
  public void close() throws InterruptedException {
    if (jstat != null) {
      jstat.destroy();
      jstat.waitFor(5, TimeUnit.SECONDS);
    }
  }

  private void read() {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(jstat.getInputStream(), StandardCharsets.UTF_8))) {
      List<String> header = null;
      String line;
      while ((line = lines.readLine()) != null) {
        String[] columns = line.trim().split("\\s+");
        if (columns.length > 0 && columns[0].equals("S0C")) {
          header = Arrays.asList(columns);
          continue;
        }
        if (header == null || columns.length != header.size()) {
          continue;
        }
        try {
          double used =
              value(header, columns, "S0U")
                  + value(header, columns, "S1U")
                  + value(header, columns, "EU")
                  + value(header, columns, "OU");
          update(used, value(header, columns, "GCT"));
        } catch (NumberFormatException notAValue) {
          // "-" where a collector has no such space: skip the line
        }
      }
    } catch (IOException ended) {
      // the target or jstat exited
    }
  }

  private synchronized void update(double used, double gc) {
    usedKiB = used;
    gcSeconds = gc;
    maxUsedKiB = Math.max(maxUsedKiB, used);
  }

  private static double value(List<String> header, String[] columns, String name) {
    int index = header.indexOf(name);
    return index < 0 ? 0 : Double.parseDouble(columns[index]);
  }
}
