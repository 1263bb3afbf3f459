package io.kuik.webhook;

import io.kuik.model.RegistryCredential;
import io.kuik.ports.RegistryProber;
import io.kuik.registry.RegistryHttp;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The production {@link RegistryProber}: OCI distribution probes ({@link ManifestProbe}) on the
 * JDK's HTTP client, every candidate of every container of an admission started at once, each list
 * resolved to the first available in list order, waiting at most {@link
 * ProberSettings#probeTimeout()} from the start of the call. A candidate still unanswered then is
 * reported {@code UNREACHABLE} for this admission; its probe runs on and its answer is cached for
 * the next one.
 *
 * <p>Answers are cached for {@link ProberSettings#cacheTtl()} by image and credential, and
 * concurrent probes of the same image with the same credential share one request: a rollout of 50
 * replicas costs one probe per image. Thread-safe; {@link #close()} stops the probe threads.
 */
public final class OciRegistryProber implements RegistryProber, AutoCloseable {

  private static final System.Logger LOG = System.getLogger(OciRegistryProber.class.getName());
  private static final int MAX_CACHED = 10_000;

  private record Key(String image, RegistryCredential credential) {}

  /** One probe, in flight or answered; fresh while in flight and for the TTL after. */
  private static final class Cached {
    final CompletableFuture<Availability> answer = new CompletableFuture<>();
    volatile long answeredAt;

    boolean freshAt(long now, long ttlNanos) {
      return !answer.isDone() || now - answeredAt < ttlNanos;
    }
  }

  private final ProberSettings settings;
  private final ManifestProbe manifests;
  private final LongSupplier nanoTime;
  private final ThreadPoolExecutor workers;
  private final int maxCached;
  private final Map<Key, Cached> cache = new ConcurrentHashMap<>();
  private final LongAdder cacheHits = new LongAdder();
  private final LongAdder collapsed = new LongAdder();

  /**
   * A prober with its probe threads, sending every request through {@link RegistryHttp}, the one
   * policy of requests that carry a credential.
   */
  public OciRegistryProber(ProberSettings settings) {
    this(settings, System::nanoTime);
  }

  OciRegistryProber(ProberSettings settings, LongSupplier nanoTime) {
    this(settings, nanoTime, MAX_CACHED);
  }

  /**
   * @param maxCached entries above which a new probe first drops the stale ones
   */
  OciRegistryProber(ProberSettings settings, LongSupplier nanoTime, int maxCached) {
    this.settings = settings;
    this.maxCached = maxCached;
    this.nanoTime = nanoTime;
    this.manifests =
        new ManifestProbe(
            new RegistryHttp(settings.probeTimeout(), settings.insecureRegistries()),
            new BearerTokens(nanoTime));
    AtomicInteger threads = new AtomicInteger();
    this.workers =
        new ThreadPoolExecutor(
            0,
            settings.maxConcurrentProbes(),
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            task -> {
              Thread thread = new Thread(task, "kuik-probe-" + threads.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
  }

  @Override
  public List<Availability> probe(List<Probe> candidates) {
    return probeAll(List.of(candidates)).get(0);
  }

  @Override
  public List<List<Availability>> probeAll(List<List<Probe>> candidateLists) {
    long deadline = nanoTime.getAsLong() + settings.probeTimeout().toNanos();
    List<List<CompletableFuture<Availability>>> started = new ArrayList<>();
    for (List<Probe> candidates : candidateLists) {
      List<CompletableFuture<Availability>> answers = new ArrayList<>(candidates.size());
      for (Probe probe : candidates) {
        answers.add(answerOf(probe));
      }
      started.add(answers);
    }
    List<List<Availability>> outcomes = new ArrayList<>(started.size());
    for (List<CompletableFuture<Availability>> answers : started) {
      List<Availability> prefix = new ArrayList<>(answers.size());
      for (CompletableFuture<Availability> answer : answers) {
        Availability outcome = await(answer, deadline);
        prefix.add(outcome);
        if (outcome == Availability.AVAILABLE) {
          break;
        }
      }
      outcomes.add(prefix);
    }
    return outcomes;
  }

  /** HTTP requests sent to registries and token services so far. */
  public long requests() {
    return manifests.requests();
  }

  /** Probes answered from the cache without any request. */
  public long cacheHits() {
    return cacheHits.sum();
  }

  /** Probes that joined another caller's probe of the same image still in flight. */
  public long collapsed() {
    return collapsed.sum();
  }

  /** Probes held now, answered or in flight. */
  int cached() {
    return cache.size();
  }

  @Override
  public void close() {
    workers.shutdownNow();
  }

  private CompletableFuture<Availability> answerOf(Probe probe) {
    Key key = new Key(probe.image().toString(), probe.credential());
    long now = nanoTime.getAsLong();
    long ttl = settings.cacheTtl().toNanos();
    Cached[] created = new Cached[1];
    Cached cached =
        cache.compute(
            key,
            (k, old) -> {
              if (old != null && old.freshAt(now, ttl)) {
                return old;
              }
              created[0] = new Cached();
              return created[0];
            });
    if (cached != created[0]) {
      (cached.answer.isDone() ? cacheHits : collapsed).increment();
      return cached.answer;
    }
    if (cache.size() > maxCached) {
      cache.values().removeIf(entry -> !entry.freshAt(now, ttl));
    }
    try {
      workers.execute(() -> run(probe, cached));
    } catch (RejectedExecutionException saturated) {
      // Answer this admission at once and cache nothing: the next one may find a free thread.
      cache.remove(key, cached);
      LOG.log(
          Level.WARNING,
          "probe of {0} not sent: {1} probes already in flight",
          probe.image(),
          settings.maxConcurrentProbes());
      cached.answer.complete(Availability.UNREACHABLE);
    }
    return cached.answer;
  }

  private void run(Probe probe, Cached cached) {
    Availability outcome;
    try {
      outcome = manifests.probe(probe.image(), probe.credential());
    } catch (RuntimeException bug) {
      LOG.log(Level.ERROR, "probe of " + probe.image() + " failed", bug);
      outcome = Availability.UNREACHABLE;
    }
    cached.answeredAt = nanoTime.getAsLong();
    cached.answer.complete(outcome);
    LOG.log(
        Level.DEBUG,
        "probe image={0} credential={1} outcome={2}",
        probe.image(),
        probe.credential() != null,
        outcome);
  }

  private Availability await(CompletableFuture<Availability> answer, long deadline) {
    long remaining = deadline - nanoTime.getAsLong();
    try {
      return remaining > 0
          ? answer.get(remaining, TimeUnit.NANOSECONDS)
          : answer.getNow(Availability.UNREACHABLE);
    } catch (TimeoutException | ExecutionException late) {
      // A probe's answer is only ever completed with a value: the second is for the compiler.
      return Availability.UNREACHABLE;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return Availability.UNREACHABLE;
    }
  }
}
