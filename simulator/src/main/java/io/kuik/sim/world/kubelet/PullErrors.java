package io.kuik.sim.world.kubelet;

import io.kuik.model.ImageReference;
import io.kuik.sim.world.registry.Availability;

/**
 * The container runtime's error for a pull that did not succeed, worded as containerd reports it to
 * the kubelet, so that the {@code Failed} Event reads as on a real node.
 */
final class PullErrors {

  private PullErrors() {}

  static String of(ImageReference image, Availability outcome) {
    String ref = image.toString();
    String manifest =
        "https://"
            + image.registry()
            + "/v2/"
            + image.path()
            + "/manifests/"
            + (image.digest() != null ? image.digest() : image.tag());
    String prefix =
        "failed to pull and unpack image \""
            + ref
            + "\": failed to resolve reference \""
            + ref
            + "\": ";
    switch (outcome) {
      case NOT_FOUND:
        return "rpc error: code = NotFound desc = " + prefix + ref + ": not found";
      case UNAUTHORIZED:
        return "rpc error: code = Unknown desc = "
            + prefix
            + "unexpected status from HEAD request to "
            + manifest
            + ": 401 Unauthorized";
      case UNREACHABLE:
        return "rpc error: code = Unknown desc = "
            + prefix
            + "failed to do request: Head \""
            + manifest
            + "\": dial tcp "
            + image.registry()
            + ": connect: connection refused";
      default:
        throw new IllegalArgumentException("not a failure: " + outcome);
    }
  }
}
