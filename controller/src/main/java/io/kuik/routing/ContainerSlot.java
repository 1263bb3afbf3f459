package io.kuik.routing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One container of a pod as submitted: where it sits ({@code list} and {@code index}, for the JSON
 * Patch), its name, its image exactly as written and its {@code imagePullPolicy} ({@code null} when
 * absent).
 */
public record ContainerSlot(
    ContainerList list, int index, String name, String image, String pullPolicy) {

  /** The policy under which the kubelet never pulls, so routing the image could not help. */
  public static final String PULL_NEVER = "Never";

  public ContainerSlot {
    Objects.requireNonNull(list, "list");
    if (index < 0) {
      throw new IllegalArgumentException("negative container index " + index);
    }
  }

  /** Every container of {@code pod}: containers, then init containers, then ephemeral ones. */
  public static List<ContainerSlot> of(Pod pod) {
    List<ContainerSlot> slots = new ArrayList<>();
    PodSpec spec = pod.getSpec();
    if (spec == null) {
      return slots;
    }
    addAll(slots, ContainerList.CONTAINERS, spec.getContainers());
    addAll(slots, ContainerList.INIT_CONTAINERS, spec.getInitContainers());
    List<EphemeralContainer> ephemeral = spec.getEphemeralContainers();
    if (ephemeral != null) {
      for (int i = 0; i < ephemeral.size(); i++) {
        EphemeralContainer c = ephemeral.get(i);
        if (c != null) {
          slots.add(
              new ContainerSlot(
                  ContainerList.EPHEMERAL_CONTAINERS,
                  i,
                  c.getName(),
                  c.getImage(),
                  c.getImagePullPolicy()));
        }
      }
    }
    return slots;
  }

  private static void addAll(List<ContainerSlot> slots, ContainerList list, List<Container> in) {
    if (in == null) {
      return;
    }
    for (int i = 0; i < in.size(); i++) {
      Container c = in.get(i);
      if (c != null) {
        slots.add(new ContainerSlot(list, i, c.getName(), c.getImage(), c.getImagePullPolicy()));
      }
    }
  }

  /** The JSON Pointer of this container's image, e.g. {@code /spec/initContainers/0/image}. */
  public String imagePointer() {
    return "/spec/" + list.field() + "/" + index + "/image";
  }
}
