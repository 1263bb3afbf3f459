package io.kuik.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;

/**
 * An open-loop load generator: admission {@code j} of a step is due at {@code start + j / rate},
 * whatever the webhook did with the earlier ones, and its latency runs from that due time to its
 * answer. So a webhook that slows down meets the same arrivals and its queue shows in the latency,
 * as it does behind an API server, where pods arrive from many controllers that do not wait for
 * each other's admissions. A closed loop (N clients each waiting for its answer) would send less
 * exactly when the webhook slows and hide the queueing (coordinated omission).
 *
 * <p>Bounded: {@code count} requests, each given up after {@code timeout}, and the step ends at
 * most {@code timeout + 10 s} after its last send.
 */
final class OpenLoop {

  private OpenLoop() {}

  /**
   * Sends {@code count} POSTs of {@code bodies.apply(first + j)} to {@code target} at {@code rate}
   * a second and records how each ended.
   */
  static StepSamples run(
      HttpClient http,
      URI target,
      LongFunction<byte[]> bodies,
      long first,
      int count,
      double rate,
      Duration timeout)
      throws InterruptedException {
    StepSamples samples = new StepSamples(count, timeout);
    CountDownLatch done = new CountDownLatch(count);
    AtomicReference<String> firstError = new AtomicReference<>();
    double interval = 1e9 / rate;
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
    for (int j = 0; j < count; j++) {
      long due = start + Math.round(j * interval);
      long wait;
      while ((wait = due - System.nanoTime()) > 0) {
        LockSupport.parkNanos(wait);
      }
      samples.sent(j, System.nanoTime() - due);
      HttpRequest request =
          HttpRequest.newBuilder(target)
              .timeout(timeout)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.apply(first + j)))
              .build();
      int index = j;
      http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
          .whenComplete(
              (response, failure) -> {
                long latency = System.nanoTime() - due;
                if (failure != null) {
                  Throwable cause = unwrap(failure);
                  if (cause instanceof HttpTimeoutException) {
                    samples.timedOut(index, latency);
                  } else {
                    firstError.compareAndSet(null, cause.toString());
                    samples.failed(index, latency);
                  }
                } else if (response.statusCode() != 200) {
                  firstError.compareAndSet(null, "HTTP " + response.statusCode());
                  samples.failed(index, latency);
                } else {
                  samples.answered(index, latency, response.body().contains("\"patch\""));
                }
                done.countDown();
              });
    }
    if (!done.await(timeout.toMillis() + 10_000, TimeUnit.MILLISECONDS)) {
      firstError.compareAndSet(null, "answers still missing 10 s after the timeout");
    }
    samples.firstError(firstError.get());
    return samples;
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
