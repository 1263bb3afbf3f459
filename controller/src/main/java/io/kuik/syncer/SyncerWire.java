package io.kuik.syncer;

import io.kuik.model.TrialVerdict;

/**
 * Where the syncer's writes meet the world: one call per write, made at the moment it goes out (on
 * a sender thread in production, half a round trip after the effect in the simulator), returning
 * what the API server or the registry answered. Every executor hands its wire to a {@link
 * WriteGate} and sends through the gate only, so that no write leaves a process that does not lead
 * or whose admission policy is away. A new kind of write is a new method here, which the gate must
 * then decide on.
 *
 * <p>Contract, for every method: it may block for the round trip, and never throws: a failure is an
 * answer ({@link Answer.Refused} with code 0 when nothing was answered).
 */
public interface SyncerWire {

  /** A server-side apply of the Secret. */
  Answer apply(Effect.ApplySecret apply);

  /** A server-side apply of a routing resource's status. */
  Answer write(Effect.WriteStatus write);

  /** An Event; fire and forget: one that cannot be recorded is dropped. */
  void record(Effect.RecordEvent event);

  /** The JSON Patch that removes a pod's pull-secret gate. */
  Answer release(Effect.ReleaseGate release);

  /** The registry's token flow with a credential. */
  TrialVerdict tryCredential(Effect.TryCredential trial);

  /** A server-side apply of the {@code kuik-provider-*} Secret keeping a minted credential. */
  Answer store(Effect.StoreProviderCredential store);
}
