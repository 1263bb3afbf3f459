package io.kuik.syncer;

import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.CredentialProvider;
import io.kuik.model.CredentialTrial;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ResourceId;
import java.util.Objects;

/**
 * What the core asks an executor to do: the only way it acts on the world. {@link
 * SecretSyncer#handle} returns them in order; an executor carries each out with its own means (the
 * production one on fabric8, the simulator's on the virtual clock, the unit tests' on fakes) and
 * hands every answer back as an {@link Input}. Dispatch with {@link #carryOut}: an executor that
 * misses a kind does not compile.
 */
public sealed interface Effect {

  /** Hands this effect to the matching method of {@code executor}. */
  void carryOut(Executor executor);

  /**
   * Carries effects out. Contract, for every method: never blocks the caller and never throws; an
   * answer (to an apply or a status write) is handed back later, as a separate input, never from
   * within the call.
   */
  interface Executor {
    void apply(ApplySecret apply);

    void write(WriteStatus write);

    void record(RecordEvent event);

    void wakeAt(WakeAt wake);

    void release(ReleaseGate release);

    void tryCredential(TryCredential trial);

    void mint(MintCredential mint);

    void store(StoreProviderCredential store);
  }

  /**
   * A server-side apply of {@code secret} as field manager {@link #FIELD_MANAGER}, with force,
   * without reading the Secret first; answered with {@link Input.ApplyAnswered}. The other fields
   * are the core's own: what the answer is recorded against.
   *
   * @param pair the pair whose Secret this is
   * @param lane the lane the pair was taken from
   * @param uid the routing resource's uid, for the Events of a refusal
   * @param hash the content's hash, recorded once the apply is taken
   * @param holds whether the Secret holds any credential
   */
  record ApplySecret(Secret secret, Pair pair, Lane lane, String uid, long hash, boolean holds)
      implements Effect {

    /** The field manager of every Secret the syncer applies. */
    public static final String FIELD_MANAGER = "kuik-secret-syncer";

    public ApplySecret {
      Objects.requireNonNull(secret, "secret");
      Objects.requireNonNull(pair, "pair");
      Objects.requireNonNull(lane, "lane");
    }

    @Override
    public void carryOut(Executor executor) {
      executor.apply(this);
    }
  }

  /**
   * A server-side apply of a routing resource's {@code status} subresource, as field manager {@link
   * #FIELD_MANAGER} with force, without reading it first; answered with {@link
   * Input.StatusAnswered}.
   */
  record WriteStatus(RoutingStatus status) implements Effect {

    /** Its own field manager: the Secrets' manager never owns a resource's fields. */
    public static final String FIELD_MANAGER = "kuik-secret-syncer-status";

    public WriteStatus {
      Objects.requireNonNull(status, "status");
    }

    @Override
    public void carryOut(Executor executor) {
      executor.write(this);
    }
  }

  /**
   * A Kubernetes Event on a routing resource (cluster-scoped, so the Event lands in the {@code
   * default} namespace, where kubectl looks) or on a pod (in its namespace, where {@code kubectl
   * describe pod} finds it by {@code uid}). Fire and forget: one that cannot be recorded is logged
   * and dropped. The message never holds a credential.
   */
  record RecordEvent(Target target, String uid, Type type, String reason, String message)
      implements Effect {

    public enum Type {
      Normal,
      Warning
    }

    /** What the Event is about. */
    public sealed interface Target permits OnResource, OnPod {}

    /** A routing resource. */
    public record OnResource(ResourceId resource) implements Target {
      public OnResource {
        Objects.requireNonNull(resource, "resource");
      }
    }

    /** A pod. */
    public record OnPod(String namespace, String name) implements Target {
      public OnPod {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
      }
    }

    public RecordEvent {
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }

    /** An Event on the routing resource {@code resource}. */
    public static RecordEvent onResource(
        ResourceId resource, String uid, Type type, String reason, String message) {
      return new RecordEvent(new OnResource(resource), uid, type, reason, message);
    }

    /** An Event on the pod {@code namespace/name}. */
    public static RecordEvent onPod(
        String namespace, String name, String uid, Type type, String reason, String message) {
      return new RecordEvent(new OnPod(namespace, name), uid, type, reason, message);
    }

    /** The same Event, its message without any form of the redactor's credentials. */
    public RecordEvent redacted(io.kuik.model.Redactor redactor) {
      String shown = redactor.redact(message);
      return shown.equals(message) ? this : new RecordEvent(target, uid, type, reason, shown);
    }

    /** The routing resource the Event is about; null for a pod's. */
    public ResourceId resource() {
      return target instanceof OnResource on ? on.resource() : null;
    }

    @Override
    public void carryOut(Executor executor) {
      executor.record(this);
    }
  }

  /** Hand {@link #timer} back in {@link Input.TimerFired} at or after its time. */
  record WakeAt(Timer timer) implements Effect {

    public WakeAt {
      Objects.requireNonNull(timer, "timer");
    }

    @Override
    public void carryOut(Executor executor) {
      executor.wakeAt(this);
    }
  }

  /**
   * Remove {@link io.kuik.model.PullSecretGate} from the pod {@code namespace/name}: the JSON Patch
   * of {@link io.kuik.model.PullSecretGate#removal}, which applies only to the pod {@code uid} with
   * the gate still at {@code index}; answered with {@link Input.GateAnswered}. Sent once the
   * Secrets the pod pulls with hold what it needs, so that it is scheduled, and pulls, after them.
   */
  record ReleaseGate(String namespace, String name, String uid, int index) implements Effect {

    public ReleaseGate {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(uid, "uid");
      if (index < 0) {
        throw new IllegalArgumentException("no gate at " + index);
      }
    }

    @Override
    public void carryOut(Executor executor) {
      executor.release(this);
    }
  }

  /**
   * The registry's token flow for a pull, tried with the very credential kuik writes for its
   * entries there (docs/behaviour.md#credentials-tried-ahead-of-time); answered with {@link
   * Input.TrialAnswered}. It reads a registry, never the API server, and may take as long as the
   * registry's timeout: never on the core's thread. Its {@code toString} holds no credential.
   */
  record TryCredential(CredentialTrial trial) implements Effect {

    public TryCredential {
      Objects.requireNonNull(trial, "trial");
    }

    @Override
    public void carryOut(Executor executor) {
      executor.tryCredential(this);
    }
  }

  /**
   * Run the credential provider plugin {@code provider} over the kubelet's exec protocol for {@code
   * image} (docs/behaviour.md#provider-credentials); answered with {@link Input.MintAnswered}. A
   * plugin may take its timeout to answer: never on the core's thread. Its {@code toString} holds
   * no value of the plugin's environment.
   */
  record MintCredential(CredentialProvider provider, String image) implements Effect {

    public MintCredential {
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(image, "image");
    }

    @Override
    public void carryOut(Executor executor) {
      executor.mint(this);
    }
  }

  /**
   * A server-side apply of the {@code kuik-provider-*} Secret that keeps a minted credential in the
   * install namespace ({@link io.kuik.model.ProviderSecrets}), as field manager {@link
   * ApplySecret#FIELD_MANAGER} with force, without reading it first; answered with {@link
   * Input.StoreAnswered}. Its {@code toString} holds no credential.
   */
  record StoreProviderCredential(Secret secret, ProviderCredential credential) implements Effect {

    public StoreProviderCredential {
      Objects.requireNonNull(secret, "secret");
      Objects.requireNonNull(credential, "credential");
    }

    @Override
    public void carryOut(Executor executor) {
      executor.store(this);
    }

    @Override
    public String toString() {
      return "StoreProviderCredential[" + secret.getMetadata().getName() + ", " + credential + "]";
    }
  }
}
