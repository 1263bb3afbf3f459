package io.kuik.sim.world.kubelet;

import io.kuik.model.ImageReference;

/** A container's {@code imagePullPolicy}. */
enum PullPolicy {
  /** Pull on every container start, even when the node has the image. */
  ALWAYS,
  /** Pull only when the node does not have the image. */
  IF_NOT_PRESENT,
  /** Never pull; a container whose image is absent fails with ErrImageNeverPull. */
  NEVER;

  /**
   * The policy as written, or when absent the API server's default: {@code Always} for the tag
   * {@code latest} (written or implied), {@code IfNotPresent} otherwise (a digest without a tag
   * included). The fake API server does not default the field, so the kubelet does it here.
   */
  static PullPolicy of(String written, ImageReference image) {
    if ("Always".equals(written)) {
      return ALWAYS;
    }
    if ("Never".equals(written)) {
      return NEVER;
    }
    if ("IfNotPresent".equals(written)) {
      return IF_NOT_PRESENT;
    }
    return image != null && "latest".equals(image.tag()) ? ALWAYS : IF_NOT_PRESENT;
  }
}
