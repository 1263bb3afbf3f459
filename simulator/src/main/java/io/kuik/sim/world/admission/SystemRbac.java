package io.kuik.sim.world.admission;

import io.kuik.sim.world.object.YamlDocuments;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * The built-in RBAC objects a real cluster bootstraps, reduced to what the simulator's own actors
 * need. The fake API server stores them at start, beside the chart's.
 *
 * <ul>
 *   <li>{@code cluster-admin}, bound to the group {@code system:masters}: people and tools acting
 *       as administrators (Helm, Velero, kubectl in the stories).
 *   <li>The garbage collector and the namespace controller may do everything. Their real roles are
 *       narrower ({@code get, list, watch, patch, update, delete} on everything for the garbage
 *       collector), but they are superusers in practice, and admission, not RBAC, is what the
 *       stories exercise on them.
 *   <li>Nodes (the group {@code system:nodes}) may get Secrets and pods, list and watch pods,
 *       update pod status and record events. This stands for the Node authorizer, simplified: a
 *       real kubelet may only read the Secrets and pods bound to its own node, a restriction the
 *       simulator does not model.
 * </ul>
 */
public final class SystemRbac {

  private static final String OBJECTS =
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: {name: cluster-admin}
      rules:
        - apiGroups: ["*"]
          resources: ["*"]
          verbs: ["*"]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: {name: cluster-admin}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
      subjects:
        - {apiGroup: rbac.authorization.k8s.io, kind: Group, name: "system:masters"}
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: {name: "system:controller:generic-garbage-collector"}
      rules:
        - apiGroups: ["*"]
          resources: ["*"]
          verbs: ["*"]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: {name: "system:controller:generic-garbage-collector"}
      roleRef:
        apiGroup: rbac.authorization.k8s.io
        kind: ClusterRole
        name: "system:controller:generic-garbage-collector"
      subjects:
        - {kind: ServiceAccount, name: generic-garbage-collector, namespace: kube-system}
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: {name: "system:controller:namespace-controller"}
      rules:
        - apiGroups: ["*"]
          resources: ["*"]
          verbs: ["*"]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: {name: "system:controller:namespace-controller"}
      roleRef:
        apiGroup: rbac.authorization.k8s.io
        kind: ClusterRole
        name: "system:controller:namespace-controller"
      subjects:
        - {kind: ServiceAccount, name: namespace-controller, namespace: kube-system}
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: {name: "system:node"}
      rules:
        - apiGroups: [""]
          resources: ["secrets"]
          verbs: ["get"]
        - apiGroups: [""]
          resources: ["pods"]
          verbs: ["get", "list", "watch"]
        - apiGroups: [""]
          resources: ["pods/status"]
          verbs: ["update", "patch"]
        - apiGroups: ["", "events.k8s.io"]
          resources: ["events"]
          verbs: ["create", "patch"]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: {name: "system:node"}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "system:node"}
      subjects:
        - {apiGroup: rbac.authorization.k8s.io, kind: Group, name: "system:nodes"}
      """;

  private SystemRbac() {}

  /** Fresh copies of the built-in ClusterRoles and ClusterRoleBindings, to store at start. */
  public static List<ObjectNode> objects() {
    return YamlDocuments.parse(OBJECTS, "built-in RBAC");
  }
}
