package io.kuik.explain;

import java.util.List;
import java.util.Map;

/**
 * What {@code kuik explain} says about one pod (or a Deployment's pod template): per container,
 * where its image came from, what the webhook would decide now, the pull Secret it needs and the
 * credentials the kubelet will offer; then the warnings, and what could not be read. Never a
 * credential. Serialized as is by {@code --output json}.
 *
 * @param object {@code Pod namespace/name} or {@code Deployment namespace/name}
 * @param namespaceLabels the namespace's labels, {@code null} when they could not be read
 * @param servedByThisInstance whether the syncer of the cluster resource namespace serves the
 *     namespace (its targeting labels), {@code null} when the labels could not be read
 * @param warnings what is likely to go wrong, in kuik's and the kubelet's words
 * @param unreadable what the caller may not read, and what was done without it
 */
public record Explanation(
    String object,
    Map<String, String> namespaceLabels,
    Boolean servedByThisInstance,
    List<ContainerExplanation> containers,
    List<String> warnings,
    List<String> unreadable) {

  public Explanation {
    namespaceLabels = namespaceLabels == null ? null : Map.copyOf(namespaceLabels);
    containers = List.copyOf(containers);
    warnings = List.copyOf(warnings);
    unreadable = List.copyOf(unreadable);
  }

  /**
   * One container.
   *
   * @param image the image it runs now (the template's, for a Deployment)
   * @param original the image as submitted, from {@code kuik.enix.io/original-images}; {@code null}
   *     when kuik did not rewrite it
   * @param rewrittenBy {@code Kind/name}, from {@code kuik.enix.io/rewritten-by}
   * @param entry the entry of that resource the image falls under, e.g. {@code spec.alternatives[1]
   *     (quay.io/acme/app)}
   * @param reason {@code kuik.enix.io/reason}
   * @param pullSecret the {@code kuik-inject-*} Secret the image's credential is in, {@code null}
   *     when it needs none from kuik
   * @param referenced whether the pod lists {@code pullSecret} in its {@code imagePullSecrets}
   * @param credential what the registry answered when the syncer last tried that entry's
   *     credential, from the resource's status; {@code null} when it needs none from kuik
   * @param minted for a provider entry, the credential the syncer writes and when it expires, or
   *     why none is written; {@code null} for any other entry
   * @param offered the keys the kubelet will offer for {@code image}, first tried first; empty: an
   *     anonymous pull
   */
  public record ContainerExplanation(
      String name,
      String image,
      String original,
      String rewrittenBy,
      String entry,
      String reason,
      WebhookNow webhookNow,
      String pullSecret,
      boolean referenced,
      String credential,
      String minted,
      List<Offer> offered) {
    public ContainerExplanation {
      offered = List.copyOf(offered);
    }
  }

  /**
   * The webhook's decision for this container if the pod were created now, from the original image.
   *
   * @param probed false without {@code --probe}: the candidates are listed, nothing is chosen
   * @param candidates in probe order, each {@code image offered by}; empty when not covered
   * @param chosen the image it would run, {@code null} when not probed or none answered
   */
  public record WebhookNow(boolean probed, List<String> candidates, String chosen, String reason) {
    public WebhookNow {
      candidates = List.copyOf(candidates);
    }
  }

  /**
   * One key the kubelet offers.
   *
   * @param secret the pull Secret holding it
   * @param content {@code read} when the Secret was read, {@code as the syncer writes it now} for a
   *     kuik Secret the caller may not read
   * @param from for a kuik key, the source Secret and key its credential comes from
   * @param writtenFor for a kuik key, the entry it was written for, e.g. {@code
   *     ImageAlternative/acme spec.alternatives[1]}
   * @param forThisImage false when the image does not fall under that entry: the kubelet offers
   *     kuik's credential to an image it was not written for
   */
  public record Offer(
      String secret,
      String key,
      String content,
      String from,
      String writtenFor,
      boolean forThisImage) {}
}
