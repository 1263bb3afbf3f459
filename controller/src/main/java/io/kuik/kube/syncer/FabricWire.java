package io.kuik.kube.syncer;

import io.kuik.kube.PodGates;
import io.kuik.model.TrialVerdict;
import io.kuik.registry.CredentialTrier;
import io.kuik.syncer.Answer;
import io.kuik.syncer.Effect;
import io.kuik.syncer.SyncerWire;

/**
 * The production {@link SyncerWire}: each write on fabric8 (or, for a trial, the registry's token
 * flow), blocking for its round trip on the thread the {@link SyncerDriver} sends it from. Only the
 * {@link io.kuik.syncer.WriteGate} calls it.
 */
final class FabricWire implements SyncerWire {

  private final ApplyingSecretWriter secrets;
  private final ApplyingStatusWriter statuses;
  private final ApiEventRecorder events;
  private final PodGates gates;
  private final CredentialTrier trier;

  FabricWire(
      ApplyingSecretWriter secrets,
      ApplyingStatusWriter statuses,
      ApiEventRecorder events,
      PodGates gates,
      CredentialTrier trier) {
    this.secrets = secrets;
    this.statuses = statuses;
    this.events = events;
    this.gates = gates;
    this.trier = trier;
  }

  @Override
  public Answer apply(Effect.ApplySecret apply) {
    return secrets.apply(apply.secret());
  }

  @Override
  public Answer write(Effect.WriteStatus write) {
    return statuses.apply(write.status());
  }

  @Override
  public void record(Effect.RecordEvent event) {
    events.record(event);
  }

  @Override
  public Answer release(Effect.ReleaseGate release) {
    PodGates.Result result =
        gates.release(release.namespace(), release.name(), release.uid(), release.index());
    return result.released()
        ? Answer.APPLIED
        : new Answer.Refused(result.code(), result.reason(), result.message());
  }

  @Override
  public TrialVerdict tryCredential(Effect.TryCredential trial) {
    return trier.tryNow(trial.trial());
  }

  @Override
  public Answer store(Effect.StoreProviderCredential store) {
    return secrets.apply(store.secret());
  }
}
