package io.kuik.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.model.RoutingKind;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Routing resources of every shape an API server that does not enforce kuik's CRD schema stores,
 * created as such a server would: the mock API server checks nothing. Each name maps to the field
 * its Event must name.
 */
public final class MalformedRoutingResources {

  /** name → {kind, spec as JSON, the field a problem names}. */
  public static final Map<String, String[]> SHAPES = shapes();

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private MalformedRoutingResources() {}

  private static Map<String, String[]> shapes() {
    Map<String, String[]> shapes = new LinkedHashMap<>();
    shapes.put(
        "string-alternatives",
        new String[] {"ImageAlternative", "{\"alternatives\":\"oops\"}", "spec.alternatives"});
    shapes.put("string-spec", new String[] {"ImageAlternative", "\"oops\"", "spec"});
    shapes.put("null-spec", new String[] {"ImageAlternative", "null", "spec"});
    shapes.put(
        "object-repository",
        new String[] {
          "ImageAlternative",
          "{\"alternatives\":[{\"repository\":{\"host\":\"quay.io\"}}]}",
          "spec.alternatives[0].repository"
        });
    shapes.put(
        "huge-repository",
        new String[] {
          "ImageAlternative",
          "{\"alternatives\":[{\"repository\":\"quay.io/" + "a".repeat(200_000) + "\"}]}",
          "spec.alternatives[0].repository"
        });
    shapes.put(
        "list-destination",
        new String[] {"ImageMirror", "{\"destination\":[\"quay.io/mirror\"]}", "spec.destination"});
    return shapes;
  }

  /** Creates the malformed resources whose names start with {@code prefix}, as stored. */
  public static void create(KubernetesClient client, String prefix) {
    SHAPES.forEach(
        (name, shape) -> {
          GenericKubernetesResource resource =
              JSON.readValue(
                  "{\"apiVersion\":\"kuik.enix.io/v1alpha1\",\"kind\":\""
                      + shape[0]
                      + "\",\"metadata\":{\"name\":\""
                      + prefix
                      + name
                      + "\"},\"spec\":"
                      + shape[1]
                      + ",\"colour\":{\"unknown\":[1,2,3]}}",
                  GenericKubernetesResource.class);
          RoutingKind kind =
              shape[0].equals("ImageMirror")
                  ? RoutingKind.IMAGE_MIRROR
                  : RoutingKind.IMAGE_ALTERNATIVE;
          client
              .genericKubernetesResources(RoutingInformers.context(kind))
              .resource(resource)
              .create();
        });
  }
}
