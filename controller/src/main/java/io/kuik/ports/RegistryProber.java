package io.kuik.ports;

import io.kuik.model.ImageReference;
import io.kuik.model.RegistryCredential;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Asks registries whether they serve an image (the probe step of docs/architecture.md#the-webhook):
 * the production driver sends an OCI {@code HEAD /v2/<name>/manifests/<reference>}; the simulator
 * asks its fake registries.
 *
 * <p>Contract of {@link #probe}: the candidates of one container, in the order the webhook prefers
 * them, each with the credential it would be pulled with. The answer holds the outcomes of a prefix
 * of the candidates, in the same order: at least every outcome up to and including the first {@link
 * Availability#AVAILABLE AVAILABLE} one, and all of them when none is available. An implementation
 * may therefore stop once the first available candidate in list order is known; a shorter answer
 * always ends with {@code AVAILABLE}. It never throws for a registry's failure (that is {@link
 * Availability#UNREACHABLE UNREACHABLE}); it may block, for at most the driver's per-probe timeout;
 * it may answer from a cache. Never logs a credential.
 */
@FunctionalInterface
public interface RegistryProber {

  /** A registry's answer about one image, in the kuik spec's words. */
  enum Availability {
    /** The manifest exists and the credential may read it: a pull would start. */
    AVAILABLE,
    /** The registry answered that this repository has no such tag or digest. */
    NOT_FOUND,
    /** The registry refused the credential, or asked for one and none was given. */
    UNAUTHORIZED,
    /** No answer: connection refused or reset, timeout, TLS failure, a 5xx or any other status. */
    UNREACHABLE
  }

  /**
   * One candidate image and the credential a pull of it would use; {@code credential} is {@code
   * null} for an anonymous pull.
   */
  record Probe(ImageReference image, RegistryCredential credential) {
    public Probe {
      Objects.requireNonNull(image, "image");
    }

    /** The probe of an image without a credential. */
    public static Probe anonymous(ImageReference image) {
      return new Probe(image, null);
    }

    @Override
    public String toString() {
      // RegistryCredential redacts itself; say only whether there is one.
      return "Probe[" + image + (credential == null ? ", anonymous]" : ", with credential]");
    }
  }

  /** The outcomes of a prefix of {@code candidates}, see the interface's contract. */
  List<Availability> probe(List<Probe> candidates);

  /**
   * {@link #probe} for the candidates of several containers, answers in the same order. The default
   * probes one container after the other; a driver that can wait on several registries at once
   * overrides it, so that one admission costs one probe timeout rather than one per container.
   */
  default List<List<Availability>> probeAll(List<List<Probe>> candidateLists) {
    List<List<Availability>> answers = new ArrayList<>(candidateLists.size());
    for (List<Probe> candidates : candidateLists) {
      answers.add(probe(candidates));
    }
    return answers;
  }
}
