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
 * <p>A ServiceAccount's token says more than its name, as the service account authenticator builds
 * it (kubernetes/kubernetes {@code pkg/serviceaccount/claims.go}, {@code validator.Validate}, which
 * reads the token's {@code kubernetes.io/pod}, {@code kubernetes.io/node} and {@code jti} claims,
 * and {@code ServiceAccountInfo.UserInfo} in
 * https://github.com/kubernetes/kubernetes/blob/v1.34.0/staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go;
 * on by default since Kubernetes 1.30, features ServiceAccountTokenJTI and
 * ServiceAccountTokenPodNodeInfo):
 *
 * <ul>
 *   <li>a token bound to a pod (the projected token the kubelet mounts) carries {@code
 *       authentication.kubernetes.io/pod-name}, {@code pod-uid}, the {@code node-name} and {@code
 *       node-uid} of the pod's node, and {@code credential-id} ({@code JTI=<the token's jti>});
 *   <li>a token requested for no pod ({@code kubectl create token}, the TokenRequest API) carries
 *       {@code credential-id} alone;
 *   <li>a legacy token Secret carries nothing ({@code pkg/serviceaccount/legacy.go}).
 * </ul>
 *
 * @param extra the authenticator's extra information, key to values; empty for most identities
 */
public record Identity(String user, List<String> groups, Map<String, List<String>> extra)
    implements Principal {

  /** The extra key of the pod a ServiceAccount token is bound to (PodNameKey upstream). */
  public static final String POD_NAME = "authentication.kubernetes.io/pod-name";

  /** The extra key of that pod's uid (PodUIDKey upstream). */
  public static final String POD_UID = "authentication.kubernetes.io/pod-uid";

  /** The extra key of the node the pod runs on (NodeNameKey upstream). */
  public static final String NODE_NAME = "authentication.kubernetes.io/node-name";

  /** The extra key of that node's uid (NodeUIDKey upstream). */
  public static final String NODE_UID = "authentication.kubernetes.io/node-uid";

  /** The extra key of the token's identifier, {@code JTI=<jti>} (user.CredentialIDKey upstream). */
  public static final String CREDENTIAL_ID = "authentication.kubernetes.io/credential-id";

  /** The one node of the simulated cluster, on which every pod runs. */
  private static final String NODE = "node-1";

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
   * A ServiceAccount authenticated by a legacy token Secret: its name and groups, no extra. The
   * simulator's controllers use it too (their extra, a {@code credential-id}, changes no decision).
   */
  public static Identity serviceAccount(String namespace, String name) {
    return new Identity(
        "system:serviceaccount:" + namespace + ":" + name,
        List.of(
            "system:serviceaccounts",
            "system:serviceaccounts:" + namespace,
            "system:authenticated"));
  }

  /**
   * A ServiceAccount authenticated by a token requested for no pod ({@code kubectl create token}):
   * its credential id alone, {@code JTI=<jti>}.
   */
  public static Identity serviceAccountToken(String namespace, String name, String jti) {
    Identity account = serviceAccount(namespace, name);
    return new Identity(
        account.user(), account.groups(), Map.of(CREDENTIAL_ID, List.of("JTI=" + jti)));
  }

  /**
   * A ServiceAccount authenticated by the token the kubelet mounts in the pod {@code pod}, which
   * runs on the simulated cluster's one node.
   */
  public static Identity serviceAccountInPod(
      String namespace, String name, String pod, String podUid) {
    Identity account = serviceAccount(namespace, name);
    return new Identity(
        account.user(),
        account.groups(),
        Map.of(
            POD_NAME,
            List.of(pod),
            POD_UID,
            List.of(podUid),
            NODE_NAME,
            List.of(NODE),
            NODE_UID,
            List.of("node-uid-" + NODE),
            CREDENTIAL_ID,
            List.of("JTI=jti-" + podUid)));
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
