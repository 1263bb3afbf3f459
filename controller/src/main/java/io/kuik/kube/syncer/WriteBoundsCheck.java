package io.kuik.kube.syncer;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kuik.syncer.WriteBounds;
import io.kuik.syncer.WriteBounds.Observed;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reads the chart's ValidatingAdmissionPolicy and its binding by name, with {@code get} (the
 * chart's RBAC grants nothing else of them, and only for these names), at once and then every
 * period, and tells {@code changed} each time {@link WriteBounds#judge} decides otherwise than the
 * last time, with one log line. A failure to read them that says nothing of them (the API server
 * unreachable, a 5xx) keeps the last decision: before the first one, the syncer does not write.
 */
final class WriteBoundsCheck implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(WriteBoundsCheck.class.getName());

  private final KubernetesClient client;
  private final String policy;
  private final String binding;
  private final Duration period;
  private final Consumer<WriteBounds> changed;
  private final ScheduledExecutorService thread;
  private volatile WriteBounds last =
      WriteBounds.unreadable("the admission policy and its binding have not been read yet");
  private boolean decided;

  WriteBoundsCheck(
      KubernetesClient client,
      String policy,
      String binding,
      Duration period,
      Consumer<WriteBounds> changed) {
    this.client = client;
    this.policy = Objects.requireNonNull(policy, "policy");
    this.binding = Objects.requireNonNull(binding, "binding");
    this.period = period;
    this.changed = changed;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread t = new Thread(task, "kuik-write-bounds");
              t.setDaemon(true);
              return t;
            });
  }

  void start() {
    thread.scheduleWithFixedDelay(
        this::checkNow, 0, Math.max(1, period.toMillis()), TimeUnit.MILLISECONDS);
  }

  /** The last decision: whether the syncer may write, and why not. */
  WriteBounds bounds() {
    return last;
  }

  /** Reads both objects and tells of a changed decision. On the check's thread, or a test's. */
  synchronized void checkNow() {
    WriteBounds now;
    try {
      now = WriteBounds.judge(policy, readPolicy(), binding, readBinding());
    } catch (KubernetesClientException failed) {
      if (failed.getCode() == 401 || failed.getCode() == 403) {
        now =
            WriteBounds.unreadable(
                "the syncer may not get the ValidatingAdmissionPolicy "
                    + policy
                    + " and its binding "
                    + binding
                    + " ("
                    + failed.getCode()
                    + "): its ClusterRole must grant get on validatingadmissionpolicies and"
                    + " validatingadmissionpolicybindings of these names");
      } else if (decided) {
        LOG.fine(() -> "could not read the admission policy, keeping the last decision: " + failed);
        return;
      } else {
        now =
            WriteBounds.unreadable(
                "the admission policy "
                    + policy
                    + " and its binding could not be read: "
                    + ApplyingSecretWriter.refusal(failed).summary());
      }
    } catch (RuntimeException broken) {
      if (decided) {
        LOG.log(Level.FINE, "could not read the admission policy", broken);
        return;
      }
      now = WriteBounds.unreadable("the admission policy could not be read: " + broken);
    }
    boolean first = !decided;
    decided = true;
    if (!first && now.equals(last)) {
      return;
    }
    boolean wasInPlace = last.inPlace();
    last = now;
    if (now.inPlace()) {
      LOG.info((first ? "writes allowed: " : "writes resumed: ") + now.why());
    } else {
      LOG.warning(
          (first || !wasInPlace ? "writes held: " : "writes stopped: ")
              + now.why()
              + "; the syncer writes nothing until the policy that bounds its writes is in place"
              + " (/readyz fails meanwhile)");
    }
    changed.accept(now);
  }

  private Observed readPolicy() {
    ValidatingAdmissionPolicy found =
        client.admissionRegistration().v1().validatingAdmissionPolicies().withName(policy).get();
    if (found == null) {
      return Observed.MISSING;
    }
    return Observed.policy(found.getMetadata().getDeletionTimestamp() != null);
  }

  private Observed readBinding() {
    ValidatingAdmissionPolicyBinding found =
        client
            .admissionRegistration()
            .v1()
            .validatingAdmissionPolicyBindings()
            .withName(binding)
            .get();
    if (found == null) {
      return Observed.MISSING;
    }
    return Observed.binding(
        found.getMetadata().getDeletionTimestamp() != null,
        found.getSpec() == null ? null : found.getSpec().getPolicyName(),
        found.getSpec() == null ? null : found.getSpec().getValidationActions());
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
