/**
 * Faults of the control plane that a correct syncer must survive: the API server answering 503 for
 * a while, and the admission policy failing to evaluate. Registry outages live on {@link
 * io.kuik.sim.world.registry.Registry}, watch faults on {@link io.kuik.sim.world.watch.Watches}.
 */
package io.kuik.sim.faults;
