package io.kuik.sim.dsl;

import io.kuik.routing.ContainerDecision;
import io.kuik.routing.RoutingDecision;
import io.kuik.sim.hosts.WebhookHost;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.object.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import tools.jackson.databind.node.ObjectNode;

/**
 * The timeline a person reads first, rendered from the trace: the administrator's setup folded into
 * one line; then every write, read of a Secret, probe, pull, restart and fault, on the clock
 * relative to the start, without what {@link #internal} leaves to the full timeline; the webhook's
 * decision on each pod it admitted, just before the pod's creation; and every Event as its type,
 * reason and message rather than its generated name. The trace itself is left as it is (its hash is
 * what replays compare).
 */
final class Storyline {

  /** The setup's actor: the administrator who installs the cluster's parts and kuik's chart. */
  static final Actor ADMIN = new Actor("admin");

  private static final Actor WEBHOOK = new Actor("webhook");

  /** kuik's routing kinds, whose status the syncer writes for people to read. */
  private static final Set<Resource> KUIK_KINDS =
      Set.of(new Resource("imagealternatives"), new Resource("imagemirrors"));

  private final Trace trace;
  private final List<WebhookHost.Admission> admissions;
  private final BiFunction<String, String, Optional<ObjectNode>> events;

  /**
   * @param events the stored Event of a namespace and name, if it is still there
   */
  Storyline(
      Trace trace,
      List<WebhookHost.Admission> admissions,
      BiFunction<String, String, Optional<ObjectNode>> events) {
    this.trace = trace;
    this.admissions = new ArrayList<>(admissions);
    this.events = events;
  }

  String render() {
    StringBuilder out = new StringBuilder();
    List<TraceRecord> records = List.copyOf(trace.records());
    int first = foldSetup(records, out);
    for (TraceRecord record : records.subList(first, records.size())) {
      if (internal(record)) {
        continue;
      }
      if (record instanceof TraceRecord.Request r) {
        if (r.kind() == RequestKind.CREATE && r.target().isA(Resource.PODS)) {
          admissionsOf(r).forEach(line -> out.append(line).append('\n'));
        }
        if (r.kind() == RequestKind.CREATE && r.target().isA(Resource.EVENTS) && r.succeeded()) {
          Optional<String> event = event(r);
          if (event.isPresent()) {
            out.append(event.get()).append('\n');
            continue;
          }
        }
      }
      out.append(trace.line(record)).append('\n');
    }
    return out.toString();
  }

  /**
   * What the story leaves to the full timeline: the informers' lists, watches and deliveries; the
   * syncer's effects as its core returned them (the request each one leads to is in the story, on
   * the same clock); reads of anything but a Secret (the components' own bookkeeping, the syncer's
   * checks of its admission policy); and the status the kubelet and the controllers write on pods
   * and Deployments. Writes, reads of Secrets, kuik's statuses, probes, pulls, Events, faults,
   * starts and crashes stay.
   */
  static boolean internal(TraceRecord record) {
    if (record instanceof TraceRecord.WatchDelivery || record instanceof Note.SyncerEffect) {
      return true;
    }
    if (!(record instanceof TraceRecord.Request r)) {
      return false;
    }
    if (r.kind() == RequestKind.LIST || r.kind() == RequestKind.WATCH) {
      return true;
    }
    if (r.kind() == RequestKind.GET) {
      return !r.target().isA(Resource.SECRETS);
    }
    return "status".equals(r.target().subresource()) && !KUIK_KINDS.contains(r.target().resource());
  }

  /**
   * The administrator's requests before anything else happens, as one line counting what was
   * created; returns the index of the first record after them.
   */
  private int foldSetup(List<TraceRecord> records, StringBuilder out) {
    Map<Resource, Integer> created = new LinkedHashMap<>();
    int i = 0;
    while (i < records.size()
        && records.get(i) instanceof TraceRecord.Request r
        && r.actor().equals(ADMIN)) {
      if (r.kind() == RequestKind.CREATE && r.succeeded()) {
        created.merge(r.target().resource(), 1, Integer::sum);
      }
      i++;
    }
    if (i == 0) {
      return 0;
    }
    int total = created.values().stream().mapToInt(Integer::intValue).sum();
    StringBuilder what = new StringBuilder();
    created.forEach(
        (resource, n) ->
            what.append(what.length() == 0 ? "" : ", ").append(n).append(' ').append(resource));
    out.append(
            trace.line(
                records.get(0).at(),
                new TraceRecord.Columns(
                    ADMIN.name(),
                    "SETUP",
                    "the cluster and the kuik chart:",
                    total + " objects (" + what + ")")))
        .append('\n');
    return i;
  }

  /** The webhook's decisions on the pod this request creates, taken from the admissions list. */
  private List<String> admissionsOf(TraceRecord.Request create) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < admissions.size(); i++) {
      WebhookHost.Admission a = admissions.get(i);
      if (a.at().equals(create.at())
          && create.target().equals(Target.object(Resource.PODS, a.namespace(), a.pod()))) {
        lines.addAll(linesOf(a));
        admissions.remove(i);
        break;
      }
    }
    return lines;
  }

  private List<String> linesOf(WebhookHost.Admission a) {
    RoutingDecision decision = a.decision();
    String pod = "pods " + a.namespace() + "/" + a.pod();
    List<String> lines = new ArrayList<>();
    if (!decision.changesPod()) {
      String why = decision.skipped() != null ? decision.skipped() : unchanged(decision);
      lines.add(note(a, "ADMIT", pod, "unchanged: " + why));
      return lines;
    }
    for (ContainerDecision c : decision.rewrites()) {
      lines.add(
          note(
              a,
              "REWRITE",
              pod,
              c.container().name()
                  + ": "
                  + c.original()
                  + " -> "
                  + c.chosen().image()
                  + " ("
                  + c.reason()
                  + ")"));
    }
    if (!decision.addedPullSecrets().isEmpty()) {
      lines.add(
          note(
              a,
              "REWRITE",
              pod,
              "imagePullSecrets += " + String.join(", ", decision.addedPullSecrets())));
    }
    return lines;
  }

  private static String unchanged(RoutingDecision decision) {
    List<String> reasons = new ArrayList<>();
    decision.containers().forEach(c -> reasons.add(c.container().name() + ": " + c.reason()));
    decision.notCovered().forEach((container, why) -> reasons.add(container + ": " + why));
    return reasons.isEmpty() ? "no container is covered" : String.join("; ", reasons);
  }

  private String note(WebhookHost.Admission a, String action, String target, String outcome) {
    return trace.line(a.at(), new TraceRecord.Columns(WEBHOOK.name(), action, target, outcome));
  }

  /** An Event's creation as what it says: on which object, its type, reason and message. */
  private Optional<String> event(TraceRecord.Request create) {
    Target target = create.target();
    if (target.namespace() == null) {
      return Optional.empty();
    }
    return events
        .apply(target.namespace(), target.name())
        .map(
            e ->
                trace.line(
                    create.at(),
                    new TraceRecord.Columns(
                        create.actor().name(),
                        "EVENT",
                        Json.text(e, "involvedObject", "kind") + " " + involved(e) + ":",
                        Json.text(e, "type")
                            + " "
                            + Json.text(e, "reason")
                            + ": "
                            + Json.text(e, "message"))));
  }

  private static String involved(ObjectNode event) {
    String namespace = Json.text(event, "involvedObject", "namespace");
    String name = Json.text(event, "involvedObject", "name");
    return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
  }
}
