package io.kuik.sim.plan;

import io.kuik.model.PullSecretsOverride;
import io.kuik.model.RoutingResource;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.plan.PlanReport.PlannedContainer;
import io.kuik.sim.plan.PlanReport.PlannedPod;
import io.kuik.sim.plan.PlanReport.Problem;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import io.kuik.syncer.Targeting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a user would see go wrong once the simulated cluster went quiet: kuik's Warning Events, pods
 * that do not run, pull Secrets referenced and never written, namespaces that a resource selects
 * and no instance serves.
 */
final class PlanProblems {

  private final KuikWorld world;
  private final ClusterState state;
  private final StoredRouting stored;
  private final List<Targeting> instances;
  private final Set<String> declared;

  PlanProblems(KuikWorld world, StoredRouting stored, Set<String> declared) {
    this.world = world;
    this.state = world.cluster().api().state();
    this.stored = stored;
    this.instances = world.install().instances();
    this.declared = Set.copyOf(declared);
  }

  /** Every problem, in the order a reader looks for them. */
  List<Problem> of(List<PlannedPod> pods) {
    List<Problem> out = new ArrayList<>(syncerWarnings());
    out.addAll(podsNotRunning(pods));
    out.addAll(pullSecretsNeverWritten(pods));
    out.addAll(namespacesNotServed());
    return out;
  }

  /** Every Warning Event kuik recorded on a routing resource, as kubectl describe shows it. */
  private List<Problem> syncerWarnings() {
    List<ObjectNode> events = new ArrayList<>(state.list(ResourceType.EVENT, null));
    events.sort(
        Comparator.comparing((ObjectNode e) -> Json.text(e, "firstTimestamp"))
            .thenComparing(Meta::name));
    List<Problem> out = new ArrayList<>();
    for (ObjectNode event : events) {
      if (StoredRouting.KUIK_API_VERSION.equals(Json.text(event, "involvedObject", "apiVersion"))
          && "Warning".equals(Json.text(event, "type"))) {
        out.add(
            new Problem(
                Json.text(event, "involvedObject", "kind")
                    + "/"
                    + Json.text(event, "involvedObject", "name"),
                Json.text(event, "reason"),
                Json.text(event, "message")));
      }
    }
    return out;
  }

  private List<Problem> podsNotRunning(List<PlannedPod> pods) {
    List<Problem> out = new ArrayList<>();
    for (PlannedPod pod : pods) {
      if ("Running".equals(pod.phase())) {
        continue;
      }
      String reason = "Pending";
      for (PlannedContainer container : pod.containers()) {
        String waiting =
            world.cluster().kubelet().waitingReason(pod.namespace(), pod.name(), container.name());
        if (waiting != null) {
          reason = waiting;
          break;
        }
      }
      out.add(
          new Problem(
              "Pod " + pod.namespace() + "/" + pod.name(),
              reason,
              lastWarningOn(pod.namespace(), pod.name()).orElse("the pod does not start")));
    }
    return out;
  }

  /**
   * The kubelet's last Warning on the pod that says why, not only which state it is in (the kubelet
   * follows "Failed to pull image ...: ..." with "Error: ErrImagePull").
   */
  private Optional<String> lastWarningOn(String namespace, String pod) {
    String last = null;
    String lastTime = "";
    for (ObjectNode event : state.list(ResourceType.EVENT, namespace)) {
      if ("Pod".equals(Json.text(event, "involvedObject", "kind"))
          && pod.equals(Json.text(event, "involvedObject", "name"))
          && "Warning".equals(Json.text(event, "type"))
          && !Json.text(event, "message").startsWith("Error: ")
          && Json.text(event, "lastTimestamp").compareTo(lastTime) >= 0) {
        last = Json.text(event, "message");
        lastTime = Json.text(event, "lastTimestamp");
      }
    }
    return Optional.ofNullable(last);
  }

  /** A reference the webhook added whose Secret is not in the pod's namespace once quiet. */
  private List<Problem> pullSecretsNeverWritten(List<PlannedPod> pods) {
    List<Problem> out = new ArrayList<>();
    for (PlannedPod pod : pods) {
      for (String name : pod.addedPullSecrets()) {
        if (state.get(ResourceType.SECRET, pod.namespace(), name).isEmpty()) {
          out.add(
              new Problem(
                  "Pod " + pod.namespace() + "/" + pod.name(),
                  "PullSecretMissing",
                  "imagePullSecrets names "
                      + name
                      + ", which no kuik instance writes in "
                      + pod.namespace()
                      + servedWhy(pod.namespace())));
        }
      }
    }
    return out;
  }

  /**
   * A namespace that a valid resource with an injecting entry selects, but that no instance serves
   * and that did not opt out ({@code pull-secrets-override: "false"}): its pods would be rewritten
   * and get a reference to a Secret that nobody writes.
   */
  private List<Problem> namespacesNotServed() {
    List<RoutingResource> injecting =
        stored.valid().stream().filter(RoutingResource::injectsAny).toList();
    Set<String> installs = instances.stream().map(Targeting::instance).collect(Collectors.toSet());
    List<Problem> out = new ArrayList<>();
    for (ObjectNode namespace : state.list(ResourceType.NAMESPACE, null)) {
      String name = Meta.name(namespace);
      Map<String, String> labels = Meta.labels(namespace);
      if (!declared.contains(name)
          || installs.contains(name)
          || name.startsWith("kube-")
          || "false".equals(labels.get(PullSecretsOverride.LABEL))
          || stored.servingInstance(name).isPresent()) {
        continue;
      }
      List<String> selecting =
          injecting.stream()
              .filter(r -> r.selectsNamespace(labels))
              .map(r -> r.id().toString())
              .toList();
      if (!selecting.isEmpty()) {
        out.add(
            new Problem(
                "Namespace " + name,
                "NamespaceNotServed",
                String.join(", ", selecting)
                    + " select"
                    + (selecting.size() == 1 ? "s" : "")
                    + " it, but no kuik instance writes Secrets there"
                    + servedWhy(name)));
      }
    }
    return out;
  }

  /** Why no instance serves a namespace, in the words of its labels; empty when one does. */
  private String servedWhy(String namespace) {
    Map<String, String> labels =
        state.get(ResourceType.NAMESPACE, null, namespace).map(Meta::labels).orElse(Map.of());
    if (stored.servingInstance(namespace).isPresent()) {
      return "";
    }
    if ("false".equals(labels.get(PullSecretsOverride.LABEL))) {
      return ": it is labelled " + PullSecretsOverride.LABEL + "=false";
    }
    String chosen = labels.get(Targeting.INSTANCE_LABEL);
    if (chosen != null) {
      return ": it is labelled "
          + Targeting.INSTANCE_LABEL
          + "="
          + chosen
          + ", and no instance is installed in "
          + chosen
          + " (--instance)";
    }
    return ": it has neither targeting label, and no instance serves namespaces by default"
        + " (--namespaces-by-default)";
  }
}
