package io.kuik.model;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.kuik.model.crd.AlternativeSpec;
import io.kuik.model.crd.AuthSpec;
import io.kuik.model.crd.DestinationSpec;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.ImageAlternativeSpec;
import io.kuik.model.crd.ImageMirror;
import io.kuik.model.crd.ImageMirrorSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns routing resources as the API server stores them into the domain's {@link RoutingResource},
 * applying defaults, or into the list of everything wrong with them
 * (docs/behaviour.md#routing-resources). The CRDs refuse the same shapes at admission; this check
 * stays because a resource may predate the CRD, and because a controller must never crash on bad
 * input.
 *
 * <p>Every problem carries the field it is in and a message saying what to do; all problems are
 * collected, not only the first.
 */
public final class RoutingResources {

  private RoutingResources() {}

  /** Validates an ImageAlternative; a {@code null} spec is a problem, not an exception. */
  public static Validated from(ImageAlternative resource) {
    Checked checked = new Checked(RoutingKind.IMAGE_ALTERNATIVE, resource);
    ImageAlternativeSpec spec = resource.getSpec();
    if (spec == null) {
      checked.problem("spec", "is required: list the alternatives under spec.alternatives");
      return checked.result(null, null, null, List.of());
    }
    RewritePolicy policy = checked.rewritePolicy(spec.rewritePolicy());
    if (policy == RewritePolicy.NONE) {
      checked.problem(
          "spec.rewritePolicy", "None is only valid on an ImageMirror: use OnFailure or Always");
    }
    checked.selectors(spec.podSelector(), spec.namespaceSelector());
    List<Entry> entries = checked.alternatives(spec.alternatives());
    return checked.result(spec.podSelector(), spec.namespaceSelector(), policy, entries);
  }

  /** Validates an ImageMirror; a {@code null} spec is a problem, not an exception. */
  public static Validated from(ImageMirror resource) {
    Checked checked = new Checked(RoutingKind.IMAGE_MIRROR, resource);
    ImageMirrorSpec spec = resource.getSpec();
    if (spec == null) {
      checked.problem("spec", "is required: set spec.destination.path");
      return checked.result(null, null, null, List.of());
    }
    RewritePolicy policy = checked.rewritePolicy(spec.rewritePolicy());
    checked.selectors(spec.podSelector(), spec.namespaceSelector());
    List<Entry> entries = checked.destination(spec.destination());
    return checked.result(spec.podSelector(), spec.namespaceSelector(), policy, entries);
  }

  private static String dns1123Problem(String name) {
    return "\""
        + name
        + "\" is not a valid name: use at most "
        + Dns1123.SUBDOMAIN_MAX
        + " lower-case letters, digits, '-' and '.', starting and ending with a letter or digit";
  }

  /** The problems found so far in one resource, and the checks that add to them. */
  private static final class Checked {
    private final ResourceId id;
    private final String uid;
    private final long generation;
    private final List<Problem> problems = new ArrayList<>();

    Checked(RoutingKind kind, HasMetadata resource) {
      String name = resource.getMetadata() == null ? null : resource.getMetadata().getName();
      this.id = new ResourceId(kind, name == null ? "" : name);
      this.uid = resource.getMetadata() == null ? null : resource.getMetadata().getUid();
      Long written = resource.getMetadata() == null ? null : resource.getMetadata().getGeneration();
      this.generation = written == null ? 0 : Math.max(0, written);
      if (name == null || name.isEmpty()) {
        problem("metadata.name", "is required");
      } else if (!Dns1123.isSubdomain(name)) {
        problem("metadata.name", dns1123Problem(name));
      }
    }

    void problem(String field, String message) {
      problems.add(new Problem(field, message));
    }

    Validated result(
        LabelSelector podSelector,
        LabelSelector namespaceSelector,
        RewritePolicy policy,
        List<Entry> entries) {
      if (!problems.isEmpty()) {
        return new Validated.Invalid(id, problems, generation);
      }
      return new Validated.Valid(
          new RoutingResource(id, uid, podSelector, namespaceSelector, policy, entries),
          generation);
    }

    RewritePolicy rewritePolicy(String written) {
      try {
        return RewritePolicy.parse(written);
      } catch (IllegalArgumentException e) {
        problem("spec.rewritePolicy", e.getMessage());
        return RewritePolicy.DEFAULT;
      }
    }

    void selectors(LabelSelector podSelector, LabelSelector namespaceSelector) {
      problems.addAll(LabelSelectors.problems(podSelector, "spec.podSelector"));
      problems.addAll(LabelSelectors.problems(namespaceSelector, "spec.namespaceSelector"));
    }

    List<Entry> alternatives(List<AlternativeSpec> alternatives) {
      if (alternatives == null || alternatives.isEmpty()) {
        problem(
            "spec.alternatives",
            "must list at least one alternative, each with a repository or a repositoryGroup");
        return List.of();
      }
      if (alternatives.size() > ImageAlternativeSpec.MAX_ALTERNATIVES) {
        // The CRD's schema refuses this many; a resource stored without it is refused here, whole,
        // before any work on its entries, so that its size costs nothing past this count.
        problem(
            "spec.alternatives",
            "lists "
                + alternatives.size()
                + " alternatives, at most "
                + ImageAlternativeSpec.MAX_ALTERNATIVES
                + " are allowed (the CRD's maxItems): kuik uses none of them");
        return List.of();
      }
      List<Entry> entries = new ArrayList<>();
      List<Integer> byRepository = new ArrayList<>();
      List<Integer> byGroup = new ArrayList<>();
      for (int i = 0; i < alternatives.size(); i++) {
        String field = "spec.alternatives[" + i + "]";
        AlternativeSpec alternative = alternatives.get(i);
        if (alternative == null) {
          problem(field, "is empty: set a repository or a repositoryGroup");
          continue;
        }
        boolean repository = alternative.repository() != null;
        boolean group = alternative.repositoryGroup() != null;
        if (repository && group) {
          problem(field, "has both repository and repositoryGroup: keep exactly one");
          continue;
        }
        if (!repository && !group) {
          problem(field, "has neither repository nor repositoryGroup: set exactly one");
          continue;
        }
        (repository ? byRepository : byGroup).add(i);
        EntryForm form = repository ? EntryForm.REPOSITORY : EntryForm.REPOSITORY_GROUP;
        String path = repository ? alternative.repository() : alternative.repositoryGroup();
        boolean pathValid =
            registryPath(field + (repository ? ".repository" : ".repositoryGroup"), path, form);
        Auth auth = auth(field + ".auth", alternative.auth());
        if (pathValid && problems.isEmpty()) {
          entries.add(new Entry(i, form, path, auth));
        }
      }
      if (!byRepository.isEmpty() && !byGroup.isEmpty()) {
        problem(
            "spec.alternatives",
            "mixes forms: entries "
                + byRepository
                + " use repository and entries "
                + byGroup
                + " use repositoryGroup; all entries of one resource use the same form, so"
                + " split them into two ImageAlternatives");
      }
      return entries;
    }

    List<Entry> destination(DestinationSpec destination) {
      if (destination == null) {
        problem(
            "spec.destination",
            "is required: set destination.path to the registry path images are mirrored under");
        return List.of();
      }
      String path = destination.path();
      boolean pathValid = registryPath("spec.destination.path", path, EntryForm.MIRROR);
      AuthSpec written = destination.pull() == null ? null : destination.pull().auth();
      Auth auth = auth("spec.destination.pull.auth", written);
      if (!pathValid || !problems.isEmpty()) {
        return List.of();
      }
      return List.of(new Entry(0, EntryForm.MIRROR, path, auth));
    }

    /** Records a problem and answers false when {@code path} is not a registry path. */
    private boolean registryPath(String field, String path, EntryForm form) {
      if (path == null || path.isEmpty()) {
        problem(field, "is required: write a registry host and path, e.g. quay.io/acme/foo");
        return false;
      }
      String parsed = path;
      if (form == EntryForm.MIRROR && path.endsWith("/")) {
        parsed = path.substring(0, path.length() - 1);
      }
      try {
        RegistryPath registryPath = RegistryPath.parse(parsed);
        if (form == EntryForm.REPOSITORY && registryPath.depth() == 0) {
          problem(
              field,
              "\""
                  + path
                  + "\" names a registry but no repository: write the repository path after"
                  + " the host, e.g. "
                  + path
                  + "/acme/foo");
          return false;
        }
        return true;
      } catch (InvalidImageReferenceException e) {
        problem(field, "\"" + path + "\" " + e.reason());
        return false;
      }
    }

    /** The auth with its defaults applied, or {@code null} when absent or invalid. */
    private Auth auth(String field, AuthSpec auth) {
      if (auth == null) {
        return null;
      }
      boolean secretRef = auth.secretRef() != null;
      boolean provider = auth.provider() != null;
      if (secretRef == provider) {
        problem(
            field,
            (secretRef ? "has both secretRef and provider" : "has neither secretRef nor provider")
                + ": set exactly one");
        return null;
      }
      if (provider) {
        if (auth.provider().isBlank()) {
          problem(field + ".provider", "is empty: name a credential provider");
          return null;
        }
        return new Auth(null, auth.provider(), Boolean.TRUE.equals(auth.injectPullSecret()));
      }
      String name = auth.secretRef().name();
      if (name == null || name.isEmpty()) {
        problem(
            field + ".secretRef.name",
            "is required: name a Secret in the namespace kuik is installed in");
        return null;
      }
      if (!Dns1123.isSubdomain(name)) {
        problem(field + ".secretRef.name", dns1123Problem(name));
        return null;
      }
      return new Auth(name, null, !Boolean.FALSE.equals(auth.injectPullSecret()));
    }
  }
}
