package io.kuik.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResourceJson;
import io.kuik.model.Validated;
import io.kuik.model.crd.ImageAlternative;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Informers of the routing kinds on {@link GenericKubernetesResource}, not on the typed classes: a
 * typed informer stops for good on the first object it cannot deserialize (a string where the CRD
 * wants a list, stored by an API server that does not enforce the schema), and then no resource of
 * that kind is served again. Generic objects always deserialize; each one is read leniently by
 * {@link RoutingResourceJson}, so a malformed one is an invalid resource and the others carry on.
 */
public final class RoutingInformers {

  /**
   * Objects per page of each informer's list, on start and on every relist: client-go's pager asks
   * 500 at a time, so no single response holds a whole large cluster.
   */
  public static final long LIST_PAGE = 500;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private RoutingInformers() {}

  /**
   * An informer of every resource of {@code kind}, cluster-wide, without resync, listed in pages.
   */
  public static SharedIndexInformer<GenericKubernetesResource> of(
      KubernetesClient client, RoutingKind kind) {
    return client
        .genericKubernetesResources(context(kind))
        .withLimit(LIST_PAGE)
        .runnableInformer(0);
  }

  /** The resource as the domain reads it, invalid when its spec has the wrong shape. */
  public static Validated validate(RoutingKind kind, GenericKubernetesResource resource) {
    JsonNode object = JSON.valueToTree(resource);
    return RoutingResourceJson.validate(kind, object);
  }

  public static ResourceDefinitionContext context(RoutingKind kind) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(ImageAlternative.GROUP)
        .withVersion(ImageAlternative.VERSION)
        .withKind(kind.kind())
        .withPlural(plural(kind))
        .withNamespaced(false)
        .build();
  }

  public static String plural(RoutingKind kind) {
    return kind.lowerName() + "s";
  }
}
