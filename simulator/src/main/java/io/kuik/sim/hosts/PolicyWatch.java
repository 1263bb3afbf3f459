package io.kuik.sim.hosts;

import io.kuik.model.WriteBounds;
import io.kuik.sim.client.Informer;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * The simulator's twin of the production {@code io.kuik.kube.PolicyWatch}: one informer per
 * ValidatingAdmissionPolicy and binding that bounds a process's writes, each listing and watching
 * its one object by name (the field selector {@code metadata.name}, authorized against RBAC's
 * resourceNames as the API server does), under the process's identity; the production {@link
 * WriteBounds} decides. Each changed decision tells {@code changed}; until every informer has
 * listed, the process does not write.
 */
final class PolicyWatch {

  private static final Duration SYNC_POLL = Duration.ofMillis(100);

  private final ApiServer api;
  private final String process;
  private final List<WriteBounds.Policy> policies;
  private boolean running;
  private final List<Informer> policyInformers = new ArrayList<>();
  private final List<Informer> bindingInformers = new ArrayList<>();
  private final Consumer<WriteBounds> changed;
  private WriteBounds last = WriteBounds.unreadable("the admission policy has not been listed yet");

  PolicyWatch(
      ApiServer api,
      Identity identity,
      String process,
      List<WriteBounds.Policy> policies,
      Consumer<WriteBounds> changed) {
    this.api = api;
    this.process = process;
    this.policies = List.copyOf(policies);
    this.changed = changed;
    for (WriteBounds.Policy policy : this.policies) {
      policyInformers.add(
          informer(
              api,
              identity,
              process + "/policy " + policy.policy(),
              ResourceType.VALIDATING_ADMISSION_POLICY,
              policy.policy()));
      bindingInformers.add(
          informer(
              api,
              identity,
              process + "/binding " + policy.binding(),
              ResourceType.VALIDATING_ADMISSION_POLICY_BINDING,
              policy.binding()));
    }
  }

  private Informer informer(
      ApiServer api, Identity identity, String name, ResourceType type, String object) {
    Informer informer =
        new Informer(
            api, identity, name, type, null, LabelSelector.EVERYTHING, object, Duration.ZERO);
    informer.addHandler(
        new Informer.Handler() {
          @Override
          public void onAdd(ObjectNode o) {
            decide();
          }

          @Override
          public void onUpdate(ObjectNode old, ObjectNode now) {
            decide();
          }

          @Override
          public void onDelete(ObjectNode gone) {
            decide();
          }
        });
    return informer;
  }

  void start() {
    running = true;
    all().forEach(Informer::start);
    api.loop()
        .schedule(SYNC_POLL, process + " waits for its policy's informers", this::firstDecision);
  }

  void stop() {
    running = false;
    all().forEach(Informer::stop);
  }

  /** The first decision, once every informer has listed (their events may say nothing). */
  private void firstDecision() {
    if (!running) {
      return;
    }
    if (!all().stream().allMatch(Informer::hasSynced)) {
      api.loop()
          .schedule(SYNC_POLL, process + " waits for its policy's informers", this::firstDecision);
      return;
    }
    decide();
  }

  WriteBounds bounds() {
    return last;
  }

  /** Decides once every informer has listed; before that the last decision stands. */
  void decide() {
    if (!running || !all().stream().allMatch(Informer::hasSynced)) {
      return;
    }
    List<WriteBounds> each = new ArrayList<>();
    for (int i = 0; i < policies.size(); i++) {
      WriteBounds.Policy names = policies.get(i);
      each.add(
          WriteBounds.judge(
              names, policy(only(policyInformers.get(i))), binding(only(bindingInformers.get(i)))));
    }
    WriteBounds now = WriteBounds.all(each);
    if (!now.equals(last)) {
      last = now;
      changed.accept(now);
    }
  }

  private List<Informer> all() {
    List<Informer> all = new ArrayList<>(policyInformers);
    all.addAll(bindingInformers);
    return all;
  }

  private static Optional<ObjectNode> only(Informer informer) {
    return informer.list().stream().findFirst();
  }

  private static WriteBounds.Observed policy(Optional<ObjectNode> found) {
    return found
        .map(p -> WriteBounds.Observed.policy(Meta.deletionTimestamp(p) != null))
        .orElse(WriteBounds.Observed.MISSING);
  }

  private static WriteBounds.Observed binding(Optional<ObjectNode> found) {
    if (found.isEmpty()) {
      return WriteBounds.Observed.MISSING;
    }
    ObjectNode binding = found.get();
    List<String> actions = new ArrayList<>();
    binding.path("spec").path("validationActions").forEach(a -> actions.add(a.asString()));
    return WriteBounds.Observed.binding(
        Meta.deletionTimestamp(binding) != null, Json.text(binding, "spec", "policyName"), actions);
  }
}
