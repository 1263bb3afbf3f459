package io.kuik.sim.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;

/**
 * What a run costs the JVM: CPU time of the current thread (the simulation runs on it alone), wall
 * time from the JVM's uptime, and the peak heap, summed over the heap pools' peaks since the meter
 * started. Reads the JVM's management beans, never the clock the simulation runs on.
 */
final class Meter {

  /** CPU and wall milliseconds, and the peak heap in MiB. */
  record Cost(long cpuMillis, long wallMillis, long peakHeapMib) {}

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final long cpuStart;
  private final long wallStart;

  Meter() {
    System.gc(); // so that the previous run's garbage does not count in this run's peak
    ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    cpuStart = threads.getCurrentThreadCpuTime();
    wallStart = ManagementFactory.getRuntimeMXBean().getUptime();
  }

  /** Heap in use right after two full collections, in bytes. */
  static long heapAfterGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  Cost stop() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return new Cost(
        (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000,
        ManagementFactory.getRuntimeMXBean().getUptime() - wallStart,
        peak / (1024 * 1024));
  }
}
