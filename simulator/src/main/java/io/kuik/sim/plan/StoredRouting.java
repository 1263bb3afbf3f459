package io.kuik.sim.plan;

import io.kuik.model.DockerConfig;
import io.kuik.model.InvalidDockerConfigException;
import io.kuik.model.RoutingResource;
import io.kuik.model.RoutingResources;
import io.kuik.model.Validated;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.ImageMirror;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import io.kuik.syncer.Targeting;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * kuik's objects as the simulated store holds them, parsed with the production model only to name
 * things: which routing resources are valid, which instance serves a namespace, what a docker
 * config Secret holds. Reading the administrator's view leaves no trace.
 */
final class StoredRouting {

  static final String KUIK_API_VERSION = "kuik.enix.io/v1alpha1";

  private final ClusterState state;
  private final List<Targeting> instances;

  StoredRouting(ClusterState state, List<Targeting> instances) {
    this.state = state;
    this.instances = List.copyOf(instances);
  }

  /** A stored routing resource, named {@code Kind/name}, when it exists and is valid. */
  Optional<RoutingResource> resource(String kindAndName) {
    String[] parts = kindAndName.split("/", 2);
    if (parts.length != 2) {
      return Optional.empty();
    }
    Validated validated;
    if (parts[0].equals("ImageAlternative")) {
      Optional<ObjectNode> stored = state.get(ResourceType.IMAGE_ALTERNATIVE, null, parts[1]);
      if (stored.isEmpty()) {
        return Optional.empty();
      }
      validated =
          RoutingResources.from(Json.MAPPER.treeToValue(stored.get(), ImageAlternative.class));
    } else if (parts[0].equals("ImageMirror")) {
      Optional<ObjectNode> stored = state.get(ResourceType.IMAGE_MIRROR, null, parts[1]);
      if (stored.isEmpty()) {
        return Optional.empty();
      }
      validated = RoutingResources.from(Json.MAPPER.treeToValue(stored.get(), ImageMirror.class));
    } else {
      return Optional.empty();
    }
    return validated instanceof Validated.Valid valid
        ? Optional.of(valid.resource())
        : Optional.empty();
  }

  /** Every stored routing resource that is valid. */
  List<RoutingResource> valid() {
    List<RoutingResource> out = new ArrayList<>();
    for (ObjectNode stored : state.list(ResourceType.IMAGE_ALTERNATIVE, null)) {
      resource("ImageAlternative/" + Meta.name(stored)).ifPresent(out::add);
    }
    for (ObjectNode stored : state.list(ResourceType.IMAGE_MIRROR, null)) {
      resource("ImageMirror/" + Meta.name(stored)).ifPresent(out::add);
    }
    return out;
  }

  /** The first instance whose targeting serves the namespace, as its labels are stored. */
  Optional<String> servingInstance(String namespace) {
    Map<String, String> labels =
        state.get(ResourceType.NAMESPACE, null, namespace).map(Meta::labels).orElse(Map.of());
    return instances.stream()
        .filter(t -> t.serves(namespace, labels))
        .map(Targeting::instance)
        .findFirst();
  }

  /** A Secret's {@code .dockerconfigjson}, when it holds one that parses. */
  static Optional<DockerConfig> dockerConfig(ObjectNode secret) {
    String encoded = Json.text(secret, "data", ".dockerconfigjson");
    if (encoded == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          DockerConfig.parse(
              new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8)));
    } catch (InvalidDockerConfigException | IllegalArgumentException unreadable) {
      return Optional.empty();
    }
  }
}
