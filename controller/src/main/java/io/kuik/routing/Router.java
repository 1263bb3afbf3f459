package io.kuik.routing;

import io.fabric8.kubernetes.api.model.Pod;
import io.kuik.ports.Clock;
import io.kuik.ports.CredentialSource;
import io.kuik.ports.RegistryProber;
import io.kuik.ports.RegistryProber.Availability;
import io.kuik.ports.RegistryProber.Probe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Routes one pod (docs/architecture.md#the-webhook): plan the candidates ({@link
 * CandidatePlanner}), probe them through the {@link RegistryProber} port with the credentials of
 * {@link ProbeCredentials}, decide ({@link Decider}). The same class runs in the webhook and in the
 * simulator; only the prober and the credential source differ.
 *
 * <p>Thread-safe when the prober and the credential source are: it keeps no state between calls.
 * Blocks as long as the prober does.
 */
public final class Router {

  private final RegistryProber prober;
  private final CredentialSource credentials;
  private final Clock clock;

  /** Without a clock: provider entries are probed anonymously. */
  public Router(RegistryProber prober, CredentialSource credentials) {
    this(prober, credentials, null);
  }

  /**
   * With {@code clock}, by which a provider entry's kept credential is judged unexpired and probed
   * with.
   */
  public Router(RegistryProber prober, CredentialSource credentials, Clock clock) {
    this.prober = Objects.requireNonNull(prober, "prober");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.clock = clock;
  }

  /**
   * The decision for {@code pod}, created in a namespace carrying {@code namespaceLabels}, with the
   * resources {@code coverage} knows. Turn it into a patch with {@link PodPatch#operations}.
   */
  public RoutingDecision route(Coverage coverage, Pod pod, Map<String, String> namespaceLabels) {
    PodPlan plan = CandidatePlanner.plan(coverage, pod, namespaceLabels);
    if (plan.containers().isEmpty()) {
      return Decider.decide(plan, List.of());
    }
    ProbeCredentials perAdmission =
        new ProbeCredentials(credentials, clock == null ? null : clock.now());
    List<List<Probe>> probes = new ArrayList<>(plan.containers().size());
    for (ContainerPlan container : plan.containers()) {
      List<Probe> candidates = new ArrayList<>(container.candidates().size());
      for (Candidate candidate : container.candidates()) {
        candidates.add(new Probe(candidate.image(), perAdmission.credentialFor(candidate)));
      }
      probes.add(candidates);
    }
    List<List<Availability>> outcomes = prober.probeAll(probes);
    return Decider.decide(plan, outcomes == null ? List.of() : outcomes);
  }
}
