package io.kuik.registry;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A body read as UTF-8 text up to a number of bytes: the rest is not read (the subscription is
 * cancelled, which closes the exchange). The JDK has no bounded body handler; a registry's answer
 * of unbounded size would otherwise fill the heap.
 */
final class LimitedBody implements HttpResponse.BodySubscriber<String> {

  private final int limit;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CompletableFuture<String> text = new CompletableFuture<>();
  private Flow.Subscription subscription;

  private LimitedBody(int limit) {
    this.limit = limit;
  }

  static HttpResponse.BodyHandler<String> handler(int limit) {
    return info -> new LimitedBody(limit);
  }

  @Override
  public CompletionStage<String> getBody() {
    return text;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(1);
  }

  @Override
  public void onNext(List<ByteBuffer> buffers) {
    for (ByteBuffer buffer : buffers) {
      int take = Math.min(buffer.remaining(), limit - bytes.size());
      byte[] chunk = new byte[take];
      buffer.get(chunk);
      bytes.write(chunk, 0, take);
      if (bytes.size() >= limit) {
        subscription.cancel();
        done();
        return;
      }
    }
    subscription.request(1);
  }

  @Override
  public void onError(Throwable failure) {
    text.completeExceptionally(failure);
  }

  @Override
  public void onComplete() {
    done();
  }

  private void done() {
    text.complete(bytes.toString(StandardCharsets.UTF_8));
  }
}
