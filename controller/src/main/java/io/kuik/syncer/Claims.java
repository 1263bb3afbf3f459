package io.kuik.syncer;

import io.kuik.model.Entry;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RoutingResource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the live pods of one namespace claim of one routing resource, judged by the webhook's own
 * rule (docs/behaviour.md#which-rewrites-count): a container's claim counts only where the webhook
 * could have made that rewrite, that is when the resource exists, its namespaceSelector selects the
 * namespace, and the container's current image falls under one of its entries. The labels and
 * annotations that make the claim are written by whoever creates the pod, so they alone prove
 * nothing. The podSelector is not checked: the pod's labels are the tenant's to write.
 *
 * <p>Pure: the caller decides whether this instance serves the namespace at all, and what to hold.
 *
 * @param recognized the entries serving the containers whose claim counts
 * @param notRecognized every claim that does not count, in pod and container order
 */
record Claims(Set<Entry> recognized, List<NotRecognized> notRecognized) {

  /** No claim at all. */
  static final Claims NONE = new Claims(Set.of(), List.of());

  /** Why a claim does not count. */
  enum Why {
    /** The pod names a resource that does not exist. */
    NO_SUCH_RESOURCE("NoSuchResource"),
    /** The resource's namespaceSelector does not select the pod's namespace. */
    NAMESPACE_NOT_SELECTED("NamespaceNotSelected"),
    /** The container's image is under none of the resource's entries. */
    IMAGE_NOT_COVERED("ImageNotCovered");

    private final String label;

    Why(String label) {
      this.label = label;
    }

    /** The value of the metric's {@code reason} label. */
    String label() {
      return label;
    }
  }

  /** One container whose claim of {@code resource} does not count, and why. */
  record NotRecognized(
      RewrittenPod pod, String container, ResourceId resource, String image, Why why) {

    /** What a person reads in the pod's Event: which claim, and why it draws nothing. */
    String describe() {
      String because =
          switch (why) {
            case NO_SUCH_RESOURCE -> resource + " does not exist";
            case NAMESPACE_NOT_SELECTED ->
                "the namespaceSelector of "
                    + resource
                    + " does not select namespace "
                    + pod.namespace();
            case IMAGE_NOT_COVERED ->
                "its image "
                    + (image == null ? "(none)" : image)
                    + " is under none of the entries of "
                    + resource;
          };
      return "container " + container + " claims a rewrite by " + resource + ", but " + because;
    }
  }

  Claims {
    recognized = Set.copyOf(recognized);
    notRecognized = List.copyOf(notRecognized);
  }

  /**
   * The claims of {@code resource} by the live {@code pods} of a namespace labelled {@code
   * namespaceLabels}.
   */
  static Claims judge(
      RoutingResource resource,
      Map<String, String> namespaceLabels,
      Collection<RewrittenPod> pods) {
    boolean selected = resource.selectsNamespace(namespaceLabels);
    Set<Entry> recognized = new LinkedHashSet<>();
    List<NotRecognized> refused = new ArrayList<>();
    for (RewrittenPod pod : pods) {
      if (!pod.live()) {
        continue; // as good as gone: its claim asks for nothing
      }
      pod.containers()
          .forEach(
              (name, container) -> {
                if (!resource.id().equals(container.rewriter())) {
                  return;
                }
                Optional<Entry> entry = entryFor(resource, container.image());
                if (!selected) {
                  refused.add(
                      new NotRecognized(
                          pod, name, resource.id(), container.image(), Why.NAMESPACE_NOT_SELECTED));
                } else if (entry.isEmpty()) {
                  refused.add(
                      new NotRecognized(
                          pod, name, resource.id(), container.image(), Why.IMAGE_NOT_COVERED));
                } else {
                  recognized.add(entry.get());
                }
              });
    }
    return new Claims(recognized, refused);
  }

  /** The claims of a resource that does not exist: none counts. */
  static Claims ofMissing(ResourceId missing, Collection<RewrittenPod> pods) {
    List<NotRecognized> refused = new ArrayList<>();
    for (RewrittenPod pod : pods) {
      if (!pod.live()) {
        continue;
      }
      pod.containers()
          .forEach(
              (name, container) -> {
                if (missing.equals(container.rewriter())) {
                  refused.add(
                      new NotRecognized(
                          pod, name, missing, container.image(), Why.NO_SUCH_RESOURCE));
                }
              });
    }
    return new Claims(Set.of(), refused);
  }

  private static Optional<Entry> entryFor(RoutingResource resource, String image) {
    if (image == null) {
      return Optional.empty();
    }
    try {
      return resource.entryFor(ImageReference.parse(image));
    } catch (InvalidImageReferenceException unparsable) {
      return Optional.empty();
    }
  }
}
