package io.kuik.syncer;

import io.kuik.model.Entry;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.ports.InformerView;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** What a rewritten pod's change means to the core: the pairs it affects, and graces it starts. */
final class PodChanges {

  private final SyncerSettings settings;
  private final InformerView view;
  private final PairMemory memory;
  private final ClaimReports claims;

  PodChanges(SyncerSettings settings, InformerView view, PairMemory memory, ClaimReports claims) {
    this.settings = settings;
    this.view = view;
    this.memory = memory;
    this.claims = claims;
  }

  /**
   * A pod added ({@code before} null), changed, or gone ({@code after} null): returns the pairs of
   * the resources it claims rewrote it, to reconcile. The entries it used until now start their
   * grace here, even if no reconcile saw it live (a pod created and deleted within the debounce
   * window), provided its claim counted: a forged pod created and deleted must not start a grace
   * either.
   */
  List<Pair> changed(RewrittenPod before, RewrittenPod after, Instant now) {
    Set<ResourceId> rewriters = new LinkedHashSet<>();
    if (before != null) {
      rewriters.addAll(RewrittenPods.rewriters(before));
    }
    if (after != null) {
      rewriters.addAll(RewrittenPods.rewriters(after));
    }
    String namespace = (after != null ? after : before).namespace();
    Optional<ObservedNamespace> served =
        view.namespace(namespace).filter(ns -> settings.targeting().serves(ns.name(), ns.labels()));
    List<Pair> pairs = new java.util.ArrayList<>();
    for (ResourceId id : rewriters) {
      Pair pair = new Pair(id, namespace);
      if (before != null && before.live() && served.isPresent()) {
        ViewReads.onFailureResource(view, id)
            .ifPresent(
                resource ->
                    Claims.judge(resource, served.get().labels(), List.of(before))
                        .recognized()
                        .stream()
                        .filter(Entry::injects)
                        .forEach(entry -> memory.sawNeeded(pair, entry.authsKey(), now)));
      }
      pairs.add(pair);
    }
    if (after == null) {
      claims.forget(before);
    }
    return pairs;
  }
}
