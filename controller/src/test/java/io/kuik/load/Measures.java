package io.kuik.load;

import io.kuik.webhook.LocalRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What one step cost, taken as differences between a {@link Mark} before it and the state after:
 * the webhook's registry requests (its {@code /metrics}), the registries' manifest HEADs (their
 * access logs), CPU time of the webhook, the harness and the registries, and the webhook's heap.
 */
final class Measures {

  /** The webhook's counter of HTTP requests it sent to registries and token services. */
  static final String REGISTRY_REQUESTS = "kuik_webhook_registry_requests_total";

  /** Counters and CPU times at the start of a step. */
  record Mark(
      long nanos,
      OptionalDouble requests,
      Duration webhookCpu,
      Duration harnessCpu,
      Duration registriesCpu,
      Map<String, Long> webhookThreads) {}

  private final WebhookProcess webhook;
  private final LocalRegistry open;
  private final LocalRegistry secured;
  private final AccessLog openLog;
  private final AccessLog securedLog;

  Measures(WebhookProcess webhook, LocalRegistry open, LocalRegistry secured) {
    this.webhook = webhook;
    this.open = open;
    this.secured = secured;
    this.openLog = new AccessLog(open.log());
    this.securedLog = new AccessLog(secured.log());
  }

  Mark mark() {
    openLog.headsSinceLastCall();
    securedLog.headsSinceLastCall();
    webhook.heap().mark();
    return new Mark(
        System.nanoTime(),
        Exposition.sample(webhook.metrics(), REGISTRY_REQUESTS),
        webhook.cpu(),
        WebhookProcess.cpuOf(ProcessHandle.current()),
        registriesCpu(),
        ThreadCpu.of(webhook.pid()));
  }

  LoadTable.Row row(
      Mark mark, double offered, Duration length, StepSamples.Summary summary, long rollouts) {
    OptionalDouble requests = Exposition.sample(webhook.metrics(), REGISTRY_REQUESTS);
    double sent =
        requests.isPresent() && mark.requests().isPresent()
            ? requests.getAsDouble() - mark.requests().getAsDouble()
            : -1;
    Duration elapsed = Duration.ofNanos(System.nanoTime() - mark.nanos());
    return new LoadTable.Row(
        offered,
        length,
        elapsed,
        summary,
        rollouts,
        sent,
        openLog.headsSinceLastCall() + securedLog.headsSinceLastCall(),
        webhook.cpu().minus(mark.webhookCpu()),
        WebhookProcess.cpuOf(ProcessHandle.current()).minus(mark.harnessCpu()),
        registriesCpu().minus(mark.registriesCpu()),
        webhook.heap().maxUsedMiB(),
        webhook.heap().gcMillis(),
        webhook.rssMiB(),
        WebhookLoad.loadAverage(),
        ThreadCpu.busiest(mark.webhookThreads(), ThreadCpu.of(webhook.pid()), elapsed, 6));
  }

  private Duration registriesCpu() {
    return WebhookProcess.cpuOf(open.process()).plus(WebhookProcess.cpuOf(secured.process()));
  }
}
