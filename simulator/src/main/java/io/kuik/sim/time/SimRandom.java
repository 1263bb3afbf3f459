package io.kuik.sim.time;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One component's stream of pseudo-random numbers, derived from the world's seed and the
 * component's name only. A component's draws therefore never depend on how many numbers another
 * component drew, nor on the order in which components were created.
 */
public final class SimRandom {

  private final SplittableRandom random;
  private final long seed;

  SimRandom(long seed) {
    this.seed = seed;
    this.random = new SplittableRandom(seed);
  }

  /** The stream of {@code name} under the root {@code seed}. */
  static SimRandom derive(long rootSeed, String name) {
    return new SimRandom(rootSeed ^ digest64(name));
  }

  public long seed() {
    return seed;
  }

  public long nextLong() {
    return random.nextLong();
  }

  public int nextInt(int bound) {
    return random.nextInt(bound);
  }

  public double nextDouble() {
    return random.nextDouble();
  }

  /** True with probability {@code p}. */
  public boolean chance(double p) {
    return random.nextDouble() < p;
  }

  public <T> T pick(List<T> options) {
    return options.get(random.nextInt(options.size()));
  }

  /** A random (version 4) UUID in its canonical text form, as the API server mints uids. */
  public String uuid() {
    long hi = (random.nextLong() & 0xffffffffffff0fffL) | 0x0000000000004000L;
    long lo = (random.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
    return new java.util.UUID(hi, lo).toString();
  }

  private static long digest64(String name) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v = (v << 8) | (d[i] & 0xff);
      }
      return v;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }
}
