package io.kuik.sim.world.kubelet;

import io.kuik.sim.world.registry.Availability;
import java.time.Instant;
import java.util.Objects;

/**
 * One request of the kubelet to a registry: when, for which pod and image (as the pod spec writes
 * it), with which credential's user name ({@code null}: anonymous), and how the registry answered.
 * A pull that tries several credentials is several attempts.
 */
public record PullAttempt(
    Instant at, String namespace, String pod, String image, String username, Availability outcome) {

  public PullAttempt {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(outcome, "outcome");
  }

  public boolean anonymous() {
    return username == null;
  }
}
