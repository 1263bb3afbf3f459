package io.kuik.routing;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.kuik.model.Entry;
import io.kuik.model.EntryForm;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.PullSecretsOverride;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plans the routing of a pod (the plan step of docs/architecture.md#the-webhook), a pure function:
 * for each container whose image some resource covers, with both selectors matching, the ordered
 * candidate list. Bands as {@link Band} orders them, resources by name within a band, entries in
 * declared order, duplicates dropped keeping the first.
 *
 * <p>What each resource offers: an ImageAlternative offers its entries other than those the
 * original falls under (those are the original itself), a {@code repository} entry as that
 * repository with the original's tag and digest, a {@code repositoryGroup} entry as the group plus
 * the original's last path segment; an ImageMirror offers {@code destination.path} plus the
 * original's normalized reference ({@code
 * registry.example.com/mirror/docker.io/library/nginx:1.27}).
 */
public final class CandidatePlanner {

  private static final Comparator<RoutingResource> PROBE_ORDER =
      Comparator.comparing((RoutingResource r) -> Band.of(r).orElseThrow())
          .thenComparing(r -> r.id().name());

  private CandidatePlanner() {}

  /**
   * The plan for {@code pod} in a namespace carrying {@code namespaceLabels}. A pod that already
   * carries {@code kuik.enix.io/original-images} is skipped whole: it was routed once, and routing
   * it again would lose the images it was submitted with. Containers with {@code imagePullPolicy:
   * Never} are skipped, since the kubelet would never pull a rewritten image.
   */
  public static PodPlan plan(Coverage coverage, Pod pod, Map<String, String> namespaceLabels) {
    Map<String, String> annotations =
        pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
    if (annotations != null && annotations.containsKey(RewriteAnnotations.ORIGINAL_IMAGES)) {
      return PodPlan.skip("already routed: it carries " + RewriteAnnotations.ORIGINAL_IMAGES);
    }
    Map<String, String> podLabels =
        pod.getMetadata() == null ? null : pod.getMetadata().getLabels();
    // One selector evaluation per resource and pod, however many containers it covers.
    Map<ResourceId, Boolean> selects = new HashMap<>();
    List<ContainerPlan> containers = new ArrayList<>();
    Map<String, String> notCovered = new LinkedHashMap<>();
    for (ContainerSlot slot : ContainerSlot.of(pod)) {
      if (ContainerSlot.PULL_NEVER.equals(slot.pullPolicy())) {
        notCovered.put(slot.name(), "imagePullPolicy Never: the kubelet never pulls its image");
        continue;
      }
      if (slot.image() == null || slot.image().isEmpty()) {
        notCovered.put(slot.name(), "has no image");
        continue;
      }
      ImageReference original;
      try {
        original = ImageReference.parse(slot.image());
      } catch (InvalidImageReferenceException unparsable) {
        notCovered.put(slot.name(), unparsable.getMessage());
        continue;
      }
      List<RoutingResource> covering = new ArrayList<>();
      for (RoutingResource resource : coverage.covering(original)) {
        boolean selected =
            selects.computeIfAbsent(
                resource.id(),
                id -> resource.selectsPod(podLabels) && resource.selectsNamespace(namespaceLabels));
        if (selected) {
          covering.add(resource);
        }
      }
      List<Candidate> candidates = candidates(coverage, covering, original);
      if (candidates.size() > 1) {
        containers.add(new ContainerPlan(slot, original, candidates));
      }
    }
    // An override "false" forbids adding a reference; "true" or none allows it.
    boolean injectionAllowed = PullSecretsOverride.of(namespaceLabels).orElse(true);
    return new PodPlan(null, containers, notCovered, ownPullSecrets(pod), injectionAllowed);
  }

  /**
   * The ordered candidates for {@code original} from the resources {@code coverage} found covering
   * it (selectors already applied), the original included at its place.
   */
  public static List<Candidate> candidates(
      Coverage coverage, List<RoutingResource> covering, ImageReference original) {
    List<RoutingResource> ordered = new ArrayList<>(covering);
    ordered.sort(PROBE_ORDER);
    List<Candidate> candidates = new ArrayList<>();
    // The original is never a duplicate of a candidate: it is always kept at its own band.
    Set<String> seen = new HashSet<>();
    seen.add(original.toString());
    boolean originalPlaced = false;
    for (RoutingResource resource : ordered) {
      Band band = Band.of(resource).orElseThrow();
      if (!originalPlaced && !band.beforeOriginal()) {
        candidates.add(Candidate.original(original));
        originalPlaced = true;
      }
      for (Candidate offered : offeredBy(coverage, resource, band, original)) {
        if (seen.add(offered.image().toString())) {
          candidates.add(offered);
        }
      }
    }
    if (!originalPlaced) {
      candidates.add(Candidate.original(original));
    }
    return candidates;
  }

  private static List<Candidate> offeredBy(
      Coverage coverage, RoutingResource resource, Band band, ImageReference original) {
    List<Candidate> offered = new ArrayList<>();
    for (Entry entry : resource.entries()) {
      String target;
      if (resource.id().kind() == RoutingKind.IMAGE_MIRROR) {
        target = entry.authsKey() + "/" + original.repository();
      } else if (coverage.fallsUnder(entry, original)) {
        continue;
      } else if (entry.form() == EntryForm.REPOSITORY) {
        target = entry.authsKey();
      } else {
        target = entry.authsKey() + "/" + lastSegment(original);
      }
      try {
        offered.add(new Candidate(original.withRepository(target), band, resource, entry));
      } catch (IllegalArgumentException tooLongOrInvalid) {
        // e.g. a mirror path plus a long original passing the 255-character name limit: that
        // candidate cannot exist, the others still can.
      }
    }
    return offered;
  }

  private static String lastSegment(ImageReference image) {
    String path = image.path();
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private static List<String> ownPullSecrets(Pod pod) {
    List<String> names = new ArrayList<>();
    if (pod.getSpec() == null || pod.getSpec().getImagePullSecrets() == null) {
      return names;
    }
    for (LocalObjectReference reference : pod.getSpec().getImagePullSecrets()) {
      if (reference != null && reference.getName() != null) {
        names.add(reference.getName());
      }
    }
    return names;
  }
}
