/**
 * A simulated kubelet on one node: it runs the pods of the cluster as far as pulling their images
 * goes, with each pod's {@code imagePullSecrets} read again on every attempt, the kubelet's
 * credential matching and its image pull back-off, and reports what it did through pod status and
 * Events.
 */
package io.kuik.sim.world.kubelet;
