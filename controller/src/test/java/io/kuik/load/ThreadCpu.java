package io.kuik.load;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a process's CPU went, by thread name: Linux's {@code /proc/<pid>/task/<tid>/stat} (user and
 * system ticks) and {@code comm}, threads of one pool taken together ({@code kuik-admission-3} and
 * {@code kuik-admission-12} are {@code kuik-admission}; {@code GC Thread#1} is {@code GC Thread}).
 * The JVM's own threads (JIT compilers, GC) are there too, which JFR's per-thread samples miss.
 * Elsewhere than Linux, empty.
 */
final class ThreadCpu {

  /** Linux's USER_HZ, the unit of the stat file's times, on every architecture it runs on. */
  private static final long TICKS_PER_SECOND = 100;

  private ThreadCpu() {}

  /** CPU time so far of each thread group of {@code pid}, in ticks. */
  static Map<String, Long> of(long pid) {
    Map<String, Long> ticks = new HashMap<>();
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        try {
          String stat = Files.readString(thread.resolve("stat"));
          String name = group(Files.readString(thread.resolve("comm")).trim());
          ticks.merge(name, ticksOf(stat), Long::sum);
        } catch (IOException | RuntimeException gone) {
          // the thread ended while we read
        }
      }
    } catch (IOException notLinux) {
      return Map.of();
    }
    return ticks;
  }

  /** User plus system ticks from a {@code stat} line (fields 14 and 15, after the name). */
  static long ticksOf(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /** The pool a thread name belongs to: trailing numbers and their separator dropped. */
  static String group(String comm) {
    return comm.replaceAll("[-#_ ]?[0-9]+$", "");
  }

  /**
   * The {@code top} groups that used the most CPU between {@code before} and {@code after}, each as
   * a share of one core over {@code wall}: {@code "kuik-admission 45%, C2 CompilerThre 20%"}.
   */
  static String busiest(Map<String, Long> before, Map<String, Long> after, Duration wall, int top) {
    List<Map.Entry<String, Long>> used = new ArrayList<>();
    for (Map.Entry<String, Long> group : after.entrySet()) {
      long delta = group.getValue() - before.getOrDefault(group.getKey(), 0L);
      if (delta > 0) {
        used.add(Map.entry(group.getKey(), delta));
      }
    }
    used.sort(Map.Entry.<String, Long>comparingByValue().reversed());
    List<String> shares = new ArrayList<>();
    double wallTicks = wall.toNanos() / 1e9 * TICKS_PER_SECOND;
    for (Map.Entry<String, Long> group : used.subList(0, Math.min(top, used.size()))) {
      shares.add(
          String.format(
              Locale.ROOT, "%s %.0f%%", group.getKey(), 100 * group.getValue() / wallTicks));
    }
    return String.join(", ", shares);
  }
}
