package io.kuik.model;

import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A valid routing resource, defaults applied: what the webhook routes with and the syncer writes
 * Secrets for. Built by {@link RoutingResources}, which refuses invalid resources with problems
 * instead of exceptions.
 *
 * <p>{@code uid} is the resource's {@code metadata.uid} (for owner references), {@code null} when
 * the object has none yet. The selectors are {@code null} when absent (select everything) and must
 * not be mutated. {@code entries} are in declared order, never empty, all of the forms that the
 * kind allows.
 */
public record RoutingResource(
    ResourceId id,
    String uid,
    LabelSelector podSelector,
    LabelSelector namespaceSelector,
    RewritePolicy rewritePolicy,
    List<Entry> entries) {

  public RoutingResource {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(rewritePolicy, "rewritePolicy");
    entries = List.copyOf(entries);
    if (entries.isEmpty()) {
      throw new IllegalArgumentException(id + " has no entry");
    }
    boolean mirror = id.kind() == RoutingKind.IMAGE_MIRROR;
    if (rewritePolicy == RewritePolicy.NONE && !mirror) {
      throw new IllegalArgumentException("rewritePolicy None is only valid on an ImageMirror");
    }
    EntryForm first = entries.get(0).form();
    for (Entry entry : entries) {
      if ((entry.form() == EntryForm.MIRROR) != mirror || entry.form() != first) {
        throw new IllegalArgumentException(id + " mixes entry forms or has the wrong form");
      }
    }
  }

  /** The first entry, in declared order, that {@code image} falls under. */
  public Optional<Entry> entryFor(ImageReference image) {
    return entries.stream().filter(entry -> entry.remainderOf(image).isPresent()).findFirst();
  }

  /** Whether any entry injects its credential; a resource where none does writes no Secret. */
  public boolean injectsAny() {
    return entries.stream().anyMatch(Entry::injects);
  }

  /** Whether {@code podSelector} selects a pod with these labels. */
  public boolean selectsPod(Map<String, String> podLabels) {
    return LabelSelectors.matches(podSelector, podLabels);
  }

  /** Whether {@code namespaceSelector} selects a namespace with these labels. */
  public boolean selectsNamespace(Map<String, String> namespaceLabels) {
    return LabelSelectors.matches(namespaceSelector, namespaceLabels);
  }
}
