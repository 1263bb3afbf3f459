package io.kuik.sim.plan;

import java.util.List;
import java.util.Objects;

/**
 * What {@code kuik plan} found once the simulated cluster went quiet: the {@code kuik-inject-*}
 * Secrets and their keys, each pod's containers with their candidates and the image they run, and
 * every problem the cluster reported. Never a credential: a key names the source Secret and the
 * source key its credential came from. Serialized as is by {@code --output json|yaml}.
 *
 * @param instances the syncer instances planned, as {@code namespace (namespaces by default:
 *     true|false)}
 * @param secrets the Secrets in the namespaces the manifests or the instances name, no other
 * @param ignored documents of kinds the plan does not read
 * @param otherNamespaces namespaces every cluster has ({@code default}, {@code kube-system}, ...)
 *     that the manifests do not name and that would get {@code kuik-inject-*} Secrets too
 */
public record PlanReport(
    List<String> instances,
    List<InjectedSecret> secrets,
    List<PlannedPod> pods,
    List<Problem> problems,
    List<String> ignored,
    List<String> otherNamespaces) {

  public PlanReport {
    instances = List.copyOf(instances);
    secrets = List.copyOf(secrets);
    pods = List.copyOf(pods);
    problems = List.copyOf(problems);
    ignored = List.copyOf(ignored);
    otherNamespaces = List.copyOf(otherNamespaces);
  }

  /** Whether the plan found a problem: {@code kuik plan} then exits 1. */
  public boolean hasProblems() {
    return !problems.isEmpty();
  }

  /**
   * A {@code kuik-inject-*} Secret as the syncer left it.
   *
   * @param resource the routing resource owning it, {@code Kind/name}
   * @param keys its {@code auths} keys in document order
   */
  public record InjectedSecret(String namespace, String name, String resource, List<Key> keys) {
    public InjectedSecret {
      keys = List.copyOf(keys);
    }
  }

  /**
   * One {@code auths} key and where its credential came from.
   *
   * @param source the {@code secretRef} Secret, {@code namespace/name}
   * @param sourceKeys the keys of that Secret holding this very credential (one, unless the source
   *     repeats a credential under several keys); empty when none does any more
   */
  public record Key(String key, String source, List<String> sourceKeys) {
    public Key {
      Objects.requireNonNull(key, "key");
      sourceKeys = List.copyOf(sourceKeys);
    }

    /** The source of a provider entry's key: its credential is minted by the syncer at run time. */
    public static final String MINTED_BY = "minted at run time by provider ";

    /** {@code kuik-system/quay-pull: quay.io/acme}, as the table prints it. */
    public String from() {
      if (source == null) {
        return "?";
      }
      if (source.startsWith(MINTED_BY)) {
        return source;
      }
      return source + ": " + (sourceKeys.isEmpty() ? "?" : String.join(" = ", sourceKeys));
    }
  }

  /**
   * A pod as the API server stored it after admission.
   *
   * @param source the manifest it came from: {@code Pod ns/name} or {@code Deployment ns/name}
   * @param phase the kubelet's phase once the cluster went quiet ({@code Running}, {@code Pending})
   * @param addedPullSecrets the references kuik's webhook added to {@code imagePullSecrets}
   */
  public record PlannedPod(
      String namespace,
      String name,
      String source,
      String phase,
      List<PlannedContainer> containers,
      List<String> addedPullSecrets) {
    public PlannedPod {
      containers = List.copyOf(containers);
      addedPullSecrets = List.copyOf(addedPullSecrets);
    }
  }

  /**
   * One container: the image as submitted, the candidates in probe order (empty when no resource
   * covers it), the image it runs after admission, and the webhook's reason.
   */
  public record PlannedContainer(
      String name, String image, List<Candidate> candidates, String runs, String reason) {
    public PlannedContainer {
      candidates = List.copyOf(candidates);
    }
  }

  /**
   * A candidate image and what offers it.
   *
   * @param offeredBy {@code original}, or {@code Kind/name spec.alternatives[i]} and the policy
   * @param chosen whether the webhook chose it
   */
  public record Candidate(String image, String offeredBy, boolean chosen) {}

  /**
   * A problem as the cluster reported it.
   *
   * @param object what it is about: {@code Kind/name}, {@code Kind namespace/name}, or a file
   * @param reason the Event's reason, the API server's status reason, or the plan's own word
   */
  public record Problem(String object, String reason, String message) {
    public Problem {
      Objects.requireNonNull(object, "object");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }
  }
}
