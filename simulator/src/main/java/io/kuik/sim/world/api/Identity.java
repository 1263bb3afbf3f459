package io.kuik.sim.world.api;

import io.kuik.sim.trace.Principal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Who makes a request: a user name, its groups and the authenticator's extra information, as the
 * API server's authenticator sees them.
 *
 * <p>A ServiceAccount's token says more than its name when it is bound to a pod. As the service
 * account authenticator does it (kubernetes/kubernetes {@code pkg/serviceaccount/claims.go}, {@code
 * validator.Validate}, which reads the token's {@code kubernetes.io/pod} claim, and {@code
 * staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go}, {@code
 * ServiceAccountInfo.UserInfo}:
 * https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go),
 * a token bound to a pod (the projected token the kubelet mounts) authenticates with {@code
 * authentication.kubernetes.io/pod-name} and {@code authentication.kubernetes.io/pod-uid} in {@code
 * extra}; a legacy token Secret, or a token requested for no pod ({@code kubectl create token}),
 * authenticates with the same name and groups and no such extra.
 *
 * @param extra the authenticator's extra information, key to values; empty for most identities
 */
public record Identity(String user, List<String> groups, Map<String, List<String>> extra)
    implements Principal {

  /** The extra key of the pod a ServiceAccount token is bound to (PodNameKey upstream). */
  public static final String POD_NAME = "authentication.kubernetes.io/pod-name";

  /** The extra key of that pod's uid (PodUIDKey upstream). */
  public static final String POD_UID = "authentication.kubernetes.io/pod-uid";

  public static final Identity GARBAGE_COLLECTOR =
      serviceAccount("kube-system", "generic-garbage-collector");
  public static final Identity NAMESPACE_CONTROLLER =
      serviceAccount("kube-system", "namespace-controller");

  public Identity {
    Objects.requireNonNull(user, "user");
    groups = List.copyOf(groups);
    Map<String, List<String>> copy = new TreeMap<>();
    extra.forEach((key, values) -> copy.put(key, List.copyOf(values)));
    extra = java.util.Collections.unmodifiableMap(copy);
  }

  /** An identity with no extra information. */
  public Identity(String user, List<String> groups) {
    this(user, groups, Map.of());
  }

  /**
   * A ServiceAccount authenticated by a token bound to no pod: a legacy token Secret, a token from
   * {@code kubectl create token}, or a controller's own (kube-controller-manager requests them with
   * the TokenRequest API, bound to nothing).
   */
  public static Identity serviceAccount(String namespace, String name) {
    return new Identity(
        "system:serviceaccount:" + namespace + ":" + name,
        List.of(
            "system:serviceaccounts",
            "system:serviceaccounts:" + namespace,
            "system:authenticated"));
  }

  /** A ServiceAccount authenticated by the token the kubelet mounts in the pod {@code pod}. */
  public static Identity serviceAccountInPod(
      String namespace, String name, String pod, String podUid) {
    Identity account = serviceAccount(namespace, name);
    return new Identity(
        account.user(), account.groups(), Map.of(POD_NAME, List.of(pod), POD_UID, List.of(podUid)));
  }

  /** Whether the token is bound to a pod. */
  public boolean podBound() {
    return extra.containsKey(POD_NAME);
  }

  /**
   * A person or bot authenticated by certificate or OIDC, e.g. {@code person("alice",
   * "system:masters")}.
   */
  public static Identity person(String name, String... groups) {
    var all = new java.util.ArrayList<>(List.of(groups));
    all.add("system:authenticated");
    return new Identity(name, all);
  }

  public static Identity node(String nodeName) {
    return new Identity("system:node:" + nodeName, List.of("system:nodes", "system:authenticated"));
  }

  @Override
  public String toString() {
    return user;
  }
}
