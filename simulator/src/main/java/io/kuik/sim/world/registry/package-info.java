/**
 * Simulated image registries: repositories with tags and digests, credentials per path prefix,
 * outages. The kubelet pulls from them and the webhook's prober probes them; every request is a
 * line of the trace.
 */
package io.kuik.sim.world.registry;
