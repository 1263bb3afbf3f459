package io.kuik.sim.check;

import io.kuik.sim.check.WorldView.EntryView;
import io.kuik.sim.check.WorldView.InjectSecret;
import io.kuik.sim.check.WorldView.NamespaceView;
import io.kuik.sim.check.WorldView.PodView;
import io.kuik.sim.check.WorldView.Policy;
import io.kuik.sim.check.WorldView.ResourceView;
import io.kuik.sim.trace.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Liveness, checked once every fault has healed and the world has run long enough: every Always
 * namespace in scope has its Secret holding exactly the credential of the source for each entry
 * (entries whose source holds nothing for them left out), and every live rewritten pod's namespace
 * that the OnFailure resource's namespaceSelector selects has the entry its image falls under with
 * the right credential. {@link #pending} says what is still outstanding; empty means converged.
 */
public final class Convergence {

  public static final String NAME = "converges-after-faults-heal";

  private Convergence() {}

  public static List<Violation> pending(WorldView view) {
    List<Violation> out = new ArrayList<>();
    for (ResourceView resource : view.resources().values()) {
      for (NamespaceView namespace : view.namespaces().values()) {
        if (namespace.terminating()) {
          continue;
        }
        Target target = Target.secret(namespace.name(), resource.secretName());
        Optional<InjectSecret> secret = Optional.ofNullable(view.injectSecrets().get(target));
        String where = namespace.name() + "/" + resource.secretName();
        if (resource.rewritePolicy() == Policy.ALWAYS
            && resource.namespaceSelector().matches(namespace.labels())) {
          Map<String, String> expected = new TreeMap<>();
          Map<String, String> held = new TreeMap<>();
          for (EntryView entry : resource.entries()) {
            Scope.credentialFor(entry, view.sources())
                .ifPresent(c -> expected.put(entry.repository(), c));
          }
          // A provider entry's token is judged by ProviderCredentialsValid.pending.
          secret.ifPresent(
              s ->
                  s.auths()
                      .forEach(
                          (key, value) -> {
                            if (resource.entries().stream()
                                .noneMatch(
                                    e -> e.provider() != null && e.repository().equals(key))) {
                              held.put(key, value);
                            }
                          }));
          if (secret.isEmpty()) {
            out.add(new Violation(NAME, where + " is missing (Always, in scope)", target));
          } else if (!held.equals(expected)) {
            out.add(
                new Violation(
                    NAME,
                    where
                        + " holds keys "
                        + secret.get().auths().keySet()
                        + " (or stale credentials); expected "
                        + expected.keySet(),
                    target));
          }
        } else if (resource.rewritePolicy() == Policy.ON_FAILURE
            && resource.namespaceSelector().matches(namespace.labels())) {
          // A claim outside the namespaceSelector counts for nothing
          // (docs/behaviour.md#which-rewrites-count).
          for (PodView pod : view.pods()) {
            if (!pod.live()
                || !pod.namespace().equals(namespace.name())
                || !resource.name().equals(pod.rewriter())) {
              continue;
            }
            Optional<EntryView> entry = resource.entryServing(pod.image());
            Optional<String> credential =
                entry.flatMap(e -> Scope.credentialFor(e, view.sources()));
            if (credential.isEmpty()) {
              continue;
            }
            String key = entry.get().repository();
            String held = secret.map(s -> s.auths().get(key)).orElse(null);
            if (!credential.get().equals(held)) {
              out.add(
                  new Violation(
                      NAME,
                      where
                          + (held == null ? " lacks " : " holds a stale credential for ")
                          + key
                          + ", needed by the live pod "
                          + pod.name(),
                      target));
            }
          }
        }
      }
    }
    return out;
  }
}
