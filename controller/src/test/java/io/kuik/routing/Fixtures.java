package io.kuik.routing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kuik.model.Auth;
import io.kuik.model.Entry;
import io.kuik.model.EntryForm;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Routing resources, pods and images for the routing tests, written as a user would. */
final class Fixtures {

  private Fixtures() {}

  static RoutingResource alternative(String name, RewritePolicy policy, Entry... entries) {
    return new RoutingResource(
        new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, name),
        "uid-" + name,
        null,
        null,
        policy,
        List.of(entries));
  }

  static RoutingResource mirror(String name, RewritePolicy policy, String path, Auth auth) {
    return new RoutingResource(
        new ResourceId(RoutingKind.IMAGE_MIRROR, name),
        "uid-" + name,
        null,
        null,
        policy,
        List.of(new Entry(0, EntryForm.MIRROR, path, auth)));
  }

  static RoutingResource mirror(String name, RewritePolicy policy, String path) {
    return mirror(name, policy, path, null);
  }

  static RoutingResource withSelectors(
      RoutingResource resource, LabelSelector podSelector, LabelSelector namespaceSelector) {
    return new RoutingResource(
        resource.id(),
        resource.uid(),
        podSelector,
        namespaceSelector,
        resource.rewritePolicy(),
        resource.entries());
  }

  static LabelSelector selector(String key, String value) {
    return new LabelSelectorBuilder().addToMatchLabels(key, value).build();
  }

  static Entry repository(int index, String path) {
    return new Entry(index, EntryForm.REPOSITORY, path, null);
  }

  static Entry repository(int index, String path, Auth auth) {
    return new Entry(index, EntryForm.REPOSITORY, path, auth);
  }

  static Entry group(int index, String path) {
    return new Entry(index, EntryForm.REPOSITORY_GROUP, path, null);
  }

  static Entry group(int index, String path, Auth auth) {
    return new Entry(index, EntryForm.REPOSITORY_GROUP, path, auth);
  }

  static ImageReference image(String reference) {
    try {
      return ImageReference.parse(reference);
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** A pod in namespace team-a whose containers c0, c1, … run the images given. */
  static Pod pod(String... images) {
    List<Container> containers = new ArrayList<>();
    for (int i = 0; i < images.length; i++) {
      containers.add(new ContainerBuilder().withName("c" + i).withImage(images[i]).build());
    }
    return new PodBuilder()
        .withNewMetadata()
        .withName("web")
        .withNamespace("team-a")
        .withLabels(Map.of("app", "web"))
        .endMetadata()
        .withNewSpec()
        .withContainers(containers)
        .endSpec()
        .build();
  }

  /** The candidate images of a plan, as text, in order; the original is marked. */
  static List<String> images(List<Candidate> candidates) {
    return candidates.stream()
        .map(c -> c.isOriginal() ? "original " + c.image() : c.by() + " " + c.image())
        .toList();
  }
}
