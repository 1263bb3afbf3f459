package io.kuik.sim.dsl;

import static io.kuik.sim.dsl.KuikWorld.ADMIN;

import io.kuik.model.DockerConfig;
import io.kuik.model.InvalidDockerConfigException;
import io.kuik.sim.check.WorldView;
import io.kuik.sim.hosts.WebhookHost;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.crd.PrinterColumns;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.registry.Availability;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * The DSL's views: what a person sees with kubectl (reads as {@link KuikWorld#ADMIN}, so they are
 * requests in the trace), what the node's kubelet did, the administrator's view the checkers judge
 * (read without requests), and the timelines a person reads.
 */
public final class Views {

  private final KuikWorld world;

  Views(KuikWorld world) {
    this.world = world;
  }

  // ---- objects ----------------------------------------------------------------------------------

  public Optional<ObjectNode> namespace(String name) {
    return world.api().find(ADMIN, ResourceType.NAMESPACE, null, name);
  }

  public Optional<ObjectNode> secret(String namespace, String name) {
    return world.api().find(ADMIN, ResourceType.SECRET, namespace, name);
  }

  /** The Secrets of every namespace. */
  public List<ObjectNode> secrets() {
    return world.api().list(ADMIN, ResourceType.SECRET, null).items();
  }

  /** The docker config a Secret holds; fails when the Secret is missing or holds none. */
  public DockerConfig dockerConfigOf(String namespace, String name) {
    ObjectNode secret =
        secret(namespace, name)
            .orElseThrow(() -> new AssertionError("no Secret " + namespace + "/" + name));
    String encoded = Json.text(secret, "data", ".dockerconfigjson");
    if (encoded == null) {
      throw new AssertionError(namespace + "/" + name + " has no .dockerconfigjson");
    }
    try {
      return DockerConfig.parse(
          new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8));
    } catch (InvalidDockerConfigException e) {
      throw new AssertionError(namespace + "/" + name + ": " + e.getMessage());
    }
  }

  public String decodedDockerConfig(String namespace, String name) {
    ObjectNode secret =
        secret(namespace, name)
            .orElseThrow(() -> new AssertionError("no Secret " + namespace + "/" + name));
    return new String(
        Base64.getDecoder().decode(Json.text(secret, "data", ".dockerconfigjson")),
        StandardCharsets.UTF_8);
  }

  /** The routing resource as stored, if it exists. */
  /** Any object by kind, namespace (ignored for a cluster-scoped kind) and name, as admin. */
  public Optional<ObjectNode> object(String kind, String namespace, String name) {
    ResourceType type = ClusterObjects.anyTypeOf(kind);
    return world.api().find(ADMIN, type, type.namespaced() ? namespace : null, name);
  }

  public Optional<ObjectNode> resource(String kind, String name) {
    return world.api().find(ADMIN, ClusterObjects.typeOf(kind), null, name);
  }

  /**
   * {@code kubectl get <plural>,<plural> -o wide} on the routing kinds: one row per resource, kind
   * after kind as listed and names in order, each a map from kubectl's header (NAME and each
   * printer column of the kind's stored CRD, upper case) to its cell; NAME is {@code
   * <kind>.<group>/<name>}, as kubectl prints it for more than one kind.
   */
  public List<Map<String, String>> kubectlGet(List<String> plurals) {
    List<Map<String, String>> rows = new ArrayList<>();
    for (String plural : plurals) {
      ResourceType type =
          ResourceType.ALL.stream()
              .filter(t -> t.resource().equals(plural))
              .findFirst()
              .orElseThrow(() -> new IllegalArgumentException("no resource type " + plural));
      ObjectNode crd =
          world
              .api()
              .get(
                  ADMIN,
                  ResourceType.CUSTOM_RESOURCE_DEFINITION,
                  null,
                  type.resource() + "." + type.group());
      List<ObjectNode> items = new ArrayList<>(world.api().list(ADMIN, type, null).items());
      items.sort(Comparator.comparing(o -> Json.text(o, "metadata", "name")));
      for (ObjectNode item : items) {
        Map<String, String> row = new LinkedHashMap<>();
        row.put(
            "NAME",
            type.kind().toLowerCase(Locale.ROOT)
                + "."
                + type.group()
                + "/"
                + Json.text(item, "metadata", "name"));
        for (PrinterColumns.Column column : PrinterColumns.of(crd)) {
          row.put(column.name().toUpperCase(Locale.ROOT), PrinterColumns.cell(column, item));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** Warning or Normal events recorded on a routing resource, as "reason: message". */
  public List<String> eventsOn(String kind, String name, String type) {
    return events("default", kind, name, type);
  }

  // ---- pods and the node ------------------------------------------------------------------------

  public ObjectNode pod(String namespace, String pod) {
    return world.api().get(ADMIN, ResourceType.POD, namespace, pod);
  }

  /** The pods of a namespace, or (null) of every namespace. */
  public List<ObjectNode> pods(String namespace) {
    return world.api().list(ADMIN, ResourceType.POD, namespace).items();
  }

  /** The pod's phase as stored ({@code status.phase}), null before the kubelet wrote one. */
  public String podPhase(String namespace, String pod) {
    return Json.text(pod(namespace, pod), "status", "phase");
  }

  /** The names of the pod's scheduling gates, in order; empty when it has none. */
  public List<String> podGates(String namespace, String pod) {
    return io.kuik.sim.world.validation.PodValidation.gates(pod(namespace, pod));
  }

  /**
   * The pod's condition {@code type} as {@code <status>/<reason>} (e.g. {@code
   * False/SchedulingGated}), null when it has none.
   */
  public String podCondition(String namespace, String pod, String type) {
    for (var condition : pod(namespace, pod).path("status").path("conditions")) {
      if (type.equals(condition.path("type").asString(""))) {
        return condition.path("status").asString("") + "/" + condition.path("reason").asString("");
      }
    }
    return null;
  }

  /**
   * Whether the Lease was renewed within its duration, as a webhook that gates on it judges it,
   * read from the stored object without a request.
   */
  public boolean leaseFresh(String namespace, String name) {
    return world
        .api()
        .state()
        .get(io.kuik.sim.world.api.ResourceType.LEASE, namespace, name)
        .map(
            lease -> {
              String renewed = io.kuik.sim.world.object.Json.text(lease, "spec", "renewTime");
              long seconds = lease.path("spec").path("leaseDurationSeconds").asLong(0);
              return renewed != null
                  && java.time.Instant.parse(renewed).plusSeconds(seconds).isAfter(world.now());
            })
        .orElse(false);
  }

  /** Pods the webhook's bound on the pull-secret gate released (pull secret first). */
  public long podsReleasedByTheBound() {
    WebhookHost webhook = world.install().webhookIfInstalled();
    return webhook == null ? 0 : webhook.releasedByTheBound();
  }

  /** The pod's phase as the kubelet has it now, before its status write lands; null if unknown. */
  public String kubeletPhase(String namespace, String pod) {
    return world.cluster().kubelet().phase(namespace, pod);
  }

  /** Whether the pod's container {@code app} runs now, as the kubelet has it. */
  public boolean appRunning(String namespace, String pod) {
    return world.cluster().kubelet().running(namespace, pod, "app");
  }

  /**
   * Why the kubelet keeps a container waiting ({@code ImagePullBackOff}, ...); null once started.
   */
  public String waitingReason(String namespace, String pod, String container) {
    return world.cluster().kubelet().waitingReason(namespace, pod, container);
  }

  /** Warning or Normal events recorded on a pod, as "reason: message". */
  public List<String> eventsOnPod(String namespace, String pod, String type) {
    return events(namespace, "Pod", pod, type);
  }

  /** One pull attempt of the kubelet; {@code username} null for an anonymous pull. */
  public record Pull(Instant at, String image, String username, String outcome) {
    public boolean succeeded() {
      return outcome.equals(Availability.AVAILABLE.name());
    }
  }

  public List<Pull> pullsOf(String namespace, String pod) {
    return world.cluster().kubelet().pullAttempts(namespace, pod).stream()
        .map(a -> new Pull(a.at(), a.image(), a.username(), a.outcome().name()))
        .toList();
  }

  // ---- the checkers' view and the timelines
  // ------------------------------------------------------

  /**
   * What an administrator sees now, read from the stored objects without a request (so the trace
   * does not change), as the checkers judge it.
   */
  public WorldView adminView(String installNamespace) {
    return WorldView.read(
        world.api().state(), installNamespace, world.install().excludedNamespaces(), world.now());
  }

  /** Every trace record as one fixed-column line. */
  public String timeline() {
    return world.cluster().trace().timeline();
  }

  /**
   * The timeline a person reads first ({@link Storyline}): the administrator's setup in one line,
   * every write, read of a Secret, pull, restart and fault, the webhook's decision on each pod and
   * every Event by its reason, without the informers' lists, watches and watch deliveries.
   */
  public String storyline() {
    WebhookHost webhook = world.install().webhookIfInstalled();
    return new Storyline(
            world.cluster().trace(),
            webhook == null ? List.of() : webhook.admissions(),
            (namespace, name) -> world.api().state().get(ResourceType.EVENT, namespace, name))
        .render();
  }

  private List<String> events(String namespace, String kind, String name, String type) {
    List<String> out = new ArrayList<>();
    for (ObjectNode event : world.api().list(ADMIN, ResourceType.EVENT, namespace).items()) {
      if (kind.equals(Json.text(event, "involvedObject", "kind"))
          && name.equals(Json.text(event, "involvedObject", "name"))
          && type.equals(Json.text(event, "type"))) {
        out.add(Json.text(event, "reason") + ": " + Json.text(event, "message"));
      }
    }
    return out;
  }
}
