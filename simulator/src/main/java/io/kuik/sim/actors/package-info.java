/**
 * The people and tools of the documented stories, each acting through API server requests under its
 * own identity, so that RBAC and admission judge them as they would judge the real ones: a
 * Deployment's ReplicaSet controller, a cluster administrator, {@code kubectl replace}, Velero and
 * Helm.
 */
package io.kuik.sim.actors;
