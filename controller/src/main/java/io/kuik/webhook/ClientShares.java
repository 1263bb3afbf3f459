package io.kuik.webhook;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each caller's share of the admissions in progress (docs/decisions/0065-the-webhooks-callers.md):
 * at most {@code share} of one client address at once; beyond, its request is answered {@code 429}
 * at once, before its body is read, and routes nothing. With the server's share, three quarters of
 * its admission threads, a pod that floods the webhook with AdmissionReviews of its own leaves a
 * quarter to every other caller, the API server first. Thread-safe; a client with nothing in
 * progress takes no memory.
 */
public final class ClientShares {

  private final int share;
  private final Map<InetAddress, Integer> inProgress = new ConcurrentHashMap<>();

  /**
   * @param share admissions of one client in progress at once, at least 1
   */
  public ClientShares(int share) {
    if (share < 1) {
      throw new IllegalArgumentException("a client's share is at least 1, got " + share);
    }
    this.share = share;
  }

  /**
   * The share of a server with {@code threads} admission threads: three quarters of them, so that
   * one client leaves the last quarter to the others, and the API server alone still has most.
   */
  public static ClientShares ofThreads(int threads) {
    return new ClientShares(Math.max(1, threads - threads / 4));
  }

  public int share() {
    return share;
  }

  /** Takes one of the client's slots; false when it has its share in progress already. */
  public boolean enter(InetAddress client) {
    boolean[] entered = {false};
    inProgress.compute(
        client,
        (address, count) -> {
          int now = count == null ? 0 : count;
          if (now >= share) {
            return count;
          }
          entered[0] = true;
          return now + 1;
        });
    return entered[0];
  }

  /** Gives back a slot {@link #enter} took. */
  public void leave(InetAddress client) {
    inProgress.computeIfPresent(client, (address, count) -> count <= 1 ? null : count - 1);
  }

  /** The client's admissions in progress. */
  int inProgress(InetAddress client) {
    return inProgress.getOrDefault(client, 0);
  }

  /** The clients with an admission in progress: the only ones held in memory. */
  int clients() {
    return inProgress.size();
  }
}
