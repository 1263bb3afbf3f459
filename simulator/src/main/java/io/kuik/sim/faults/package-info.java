/**
 * The faults a correct syncer must survive, one module each, each opening with its fault model as
 * TigerBeetle's VOPR does (https://github.com/tigerbeetle/tigerbeetle/blob/main/src/vopr.zig):
 * API-server outages ({@link io.kuik.sim.faults.Outages}), watch events lost, late or expired
 * ({@link io.kuik.sim.faults.WatchFaults}), the syncer's process crashing ({@link
 * io.kuik.sim.faults.SyncerCrashes}), registries out of reach ({@link
 * io.kuik.sim.faults.RegistryOutages}), and the admission policy failing to evaluate ({@link
 * io.kuik.sim.faults.PolicyFailure}). A fault module acts on the world through its seams (the API
 * server's request faults, the watches' delivery faults, a process host, a registry) and marks its
 * windows in the trace, where the checkers read them; the world never depends on it.
 */
package io.kuik.sim.faults;
