package io.kuik.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kuik.model.WriteBounds;
import io.kuik.model.WriteBounds.Observed;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Watches the ValidatingAdmissionPolicies that bound a process's writes, each with its binding, by
 * name: one informer per object, a list and watch with the field selector {@code
 * metadata.name=<name>}, which the API server authorizes against RBAC's {@code resourceNames}
 * (https://github.com/kubernetes/kubernetes/blob/v1.34.0/staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go,
 * where a list or watch with that selector carries the name), so the chart grants exactly these
 * objects and nothing else of their kinds. A deletion is seen when the API server sends it, not at
 * the next poll. Each change that turns {@link WriteBounds#judge} otherwise tells {@code changed},
 * with one log line; before every informer has listed, and when one may not list, the process does
 * not write.
 */
public final class PolicyWatch implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(PolicyWatch.class.getName());

  private final String who;
  private final List<WriteBounds.Policy> policies;
  private final Consumer<WriteBounds> changed;
  private final List<SharedIndexInformer<ValidatingAdmissionPolicy>> policyInformers =
      new ArrayList<>();
  private final List<SharedIndexInformer<ValidatingAdmissionPolicyBinding>> bindingInformers =
      new ArrayList<>();
  private volatile WriteBounds last;
  private volatile String refused;
  private int listed;
  private boolean decided;

  /**
   * @param who the process, for the log line ("the syncer writes", "the webhook patches pods")
   * @param changed told each changed decision, on an informer's thread
   */
  public PolicyWatch(
      KubernetesClient client,
      List<WriteBounds.Policy> policies,
      String who,
      Consumer<WriteBounds> changed) {
    this.who = Objects.requireNonNull(who, "who");
    this.policies = List.copyOf(policies);
    this.changed = Objects.requireNonNull(changed, "changed");
    this.last = WriteBounds.unreadable(describe() + ": not listed yet");
    for (WriteBounds.Policy policy : this.policies) {
      policyInformers.add(
          client
              .admissionRegistration()
              .v1()
              .validatingAdmissionPolicies()
              .withField("metadata.name", policy.policy())
              .withLimit(RoutingInformers.LIST_PAGE)
              .runnableInformer(0));
      bindingInformers.add(
          client
              .admissionRegistration()
              .v1()
              .validatingAdmissionPolicyBindings()
              .withField("metadata.name", policy.binding())
              .withLimit(RoutingInformers.LIST_PAGE)
              .runnableInformer(0));
    }
  }

  /** Starts every informer; each add, update or delete decides again. Returns at once. */
  public void start() {
    List<SharedIndexInformer<?>> all = new ArrayList<>(policyInformers);
    all.addAll(bindingInformers);
    for (SharedIndexInformer<?> informer : all) {
      informer.addEventHandler(recheck());
      informer
          .start()
          .whenComplete(
              (ok, failure) -> {
                if (failure != null) {
                  refused(failure);
                } else {
                  listedOne(all.size());
                }
              });
    }
  }

  /** The last decision: whether the process may write, and why not. */
  public WriteBounds bounds() {
    return last;
  }

  private synchronized void listedOne(int informers) {
    listed++;
    if (listed == informers) {
      decide();
    }
  }

  private synchronized void refused(Throwable failure) {
    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
    int code = cause instanceof KubernetesClientException k ? k.getCode() : 0;
    refused =
        describe()
            + " could not be listed and watched"
            + (code == 401 || code == 403
                ? " (" + code + "): RBAC must grant list and watch on these names"
                : ": " + cause.getMessage());
    decide();
  }

  private synchronized void decide() {
    WriteBounds now;
    // Reached once every informer has listed (listedOne), or once one may not (refused): the
    // first decision waits for all of them, or for the first refusal.
    if (refused != null) {
      now = WriteBounds.unreadable(refused);
    } else {
      List<WriteBounds> each = new ArrayList<>();
      for (int i = 0; i < policies.size(); i++) {
        WriteBounds.Policy names = policies.get(i);
        each.add(
            WriteBounds.judge(
                names,
                policy(only(policyInformers.get(i), names.policy())),
                binding(only(bindingInformers.get(i), names.binding()))));
      }
      now = WriteBounds.all(each);
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
              + "; "
              + who
              + " nothing until the policy that bounds it is in place (/readyz fails meanwhile)");
    }
    changed.accept(now);
  }

  private static <T extends HasMetadata> T only(SharedIndexInformer<T> informer, String name) {
    return informer.getStore().list().stream()
        .filter(o -> name.equals(o.getMetadata().getName()))
        .findFirst()
        .orElse(null);
  }

  private static Observed policy(ValidatingAdmissionPolicy found) {
    return found == null
        ? Observed.MISSING
        : Observed.policy(found.getMetadata().getDeletionTimestamp() != null);
  }

  private static Observed binding(ValidatingAdmissionPolicyBinding found) {
    if (found == null) {
      return Observed.MISSING;
    }
    return Observed.binding(
        found.getMetadata().getDeletionTimestamp() != null,
        found.getSpec() == null ? null : found.getSpec().getPolicyName(),
        found.getSpec() == null ? null : found.getSpec().getValidationActions());
  }

  private <T> ResourceEventHandler<T> recheck() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        decideAfterList();
      }

      @Override
      public void onUpdate(T before, T after) {
        decideAfterList();
      }

      @Override
      public void onDelete(T last, boolean finalStateUnknown) {
        decideAfterList();
      }
    };
  }

  private synchronized void decideAfterList() {
    if (decided) {
      decide();
    }
  }

  private String describe() {
    return String.join(" and ", policies.stream().map(WriteBounds.Policy::toString).toList());
  }

  @Override
  public void close() {
    policyInformers.forEach(SharedIndexInformer::stop);
    bindingInformers.forEach(SharedIndexInformer::stop);
  }
}
