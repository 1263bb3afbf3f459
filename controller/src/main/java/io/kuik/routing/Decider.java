package io.kuik.routing;

import io.kuik.model.SecretNames;
import io.kuik.ports.RegistryProber.Availability;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Decides a pod's routing from its plan and the probe outcomes (the decide step of
 * docs/architecture.md#the-webhook), a pure function: each container runs the first available
 * candidate in list order; if that is the original, or nothing is available, its image stays. Each
 * winning entry whose auth injects adds {@code kuik-inject-<kind>-<name>} to {@code
 * imagePullSecrets} once, unless the pod lists it already or the namespace says {@code
 * kuik.enix.io/pull-secrets-override: "false"}.
 *
 * <p>One rule on top of "first available": the original is probed without a credential (the webhook
 * cannot read Secrets outside the cluster resource namespace), so an original answering {@code
 * UNAUTHORIZED} in a pod that has {@code imagePullSecrets} of its own counts as available: the pod
 * most likely holds the credential, and routing every pod of a private image away would turn {@code
 * OnFailure} into {@code Always}. Without pull secrets of its own the pod would pull anonymously
 * and be refused exactly as the probe was, so the answer stands.
 */
public final class Decider {

  private Decider() {}

  /**
   * @param outcomes per planned container, in the plan's order, the prober's answer: a prefix of
   *     the candidates' outcomes (see {@link io.kuik.ports.RegistryProber}); a shorter or missing
   *     answer reads as "not probed", so a misbehaving prober can only leave images unchanged
   */
  public static RoutingDecision decide(PodPlan plan, List<List<Availability>> outcomes) {
    List<ContainerDecision> decisions = new ArrayList<>();
    Set<String> added = new LinkedHashSet<>();
    for (int i = 0; i < plan.containers().size(); i++) {
      ContainerPlan container = plan.containers().get(i);
      List<Availability> answer = i < outcomes.size() ? outcomes.get(i) : List.of();
      ContainerDecision decision = decide(container, answer, !plan.ownPullSecrets().isEmpty());
      decisions.add(decision);
      if (decision.rewrites() && plan.injectionAllowed() && decision.chosen().entry().injects()) {
        String name =
            SecretNames.injected(
                decision.chosen().by().kind().kind(), decision.chosen().by().name());
        if (!plan.ownPullSecrets().contains(name)) {
          added.add(name);
        }
      }
    }
    return new RoutingDecision(plan.skipped(), decisions, plan.notCovered(), List.copyOf(added));
  }

  private static ContainerDecision decide(
      ContainerPlan plan, List<Availability> answer, boolean podHasPullSecrets) {
    List<String> refused = new ArrayList<>();
    int answered = Math.min(answer.size(), plan.candidates().size());
    for (int i = 0; i < answered; i++) {
      Candidate candidate = plan.candidates().get(i);
      Availability outcome = answer.get(i);
      if (outcome == Availability.AVAILABLE) {
        return new ContainerDecision(
            plan.container(),
            plan.original(),
            plan.candidates(),
            candidate,
            reason(refused, candidate));
      }
      if (candidate.isOriginal() && outcome == Availability.UNAUTHORIZED && podHasPullSecrets) {
        return new ContainerDecision(
            plan.container(),
            plan.original(),
            plan.candidates(),
            candidate,
            "original needs a credential the webhook cannot see; kept for the pod's own"
                + " imagePullSecrets");
      }
      refused.add(candidate.image() + " " + words(outcome));
    }
    return new ContainerDecision(
        plan.container(),
        plan.original(),
        plan.candidates(),
        null,
        refused.isEmpty()
            ? "no candidate probed"
            : "no candidate available: " + String.join("; ", refused));
  }

  private static String reason(List<String> refused, Candidate winner) {
    String served =
        winner.isOriginal()
            ? "original available"
            : "served by "
                + winner.by()
                + " ("
                + winner.entry().field()
                + ", "
                + winner.resource().rewritePolicy().value()
                + ")";
    if (refused.isEmpty()) {
      return served;
    }
    return String.join("; ", refused) + "; " + served;
  }

  static String words(Availability outcome) {
    return outcome.name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }
}
