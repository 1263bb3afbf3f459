package io.kuik.syncer;

import io.kuik.model.MintResult;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.TrialVerdict;
import io.kuik.model.WriteBounds;
import java.util.Objects;

/**
 * What the core hears, one input at a time ({@link SecretSyncer#handle}): a change the informers
 * announce (after their view already shows it), the start, a timer it set, or the answer to a write
 * it asked for. The informers' notifications become inputs by one rule, shared by every executor
 * (docs/architecture.md#from-a-notification-to-an-input).
 */
public sealed interface Input {

  /** The informers have synced (and this process may write): reconcile every pair once. */
  record Started() implements Input {}

  /** A routing resource was created, or its spec changed. */
  record ResourceChanged(ResourceId id) implements Input {
    public ResourceChanged {
      Objects.requireNonNull(id, "id");
    }
  }

  /** A routing resource is gone; its Secrets go with it through their ownerReference. */
  record ResourceDeleted(ResourceId id) implements Input {
    public ResourceDeleted {
      Objects.requireNonNull(id, "id");
    }
  }

  /** A namespace was created, or its labels or its deletion changed. */
  record NamespaceChanged(String name) implements Input {
    public NamespaceChanged {
      Objects.requireNonNull(name, "name");
    }
  }

  record NamespaceDeleted(String name) implements Input {
    public NamespaceDeleted {
      Objects.requireNonNull(name, "name");
    }
  }

  /** A rewritten pod added ({@code before} null), changed, or gone ({@code after} null). */
  record PodChanged(RewrittenPod before, RewrittenPod after) implements Input {
    public PodChanged {
      if (before == null && after == null) {
        throw new IllegalArgumentException("a pod change has a before or an after");
      }
    }
  }

  /**
   * A Secret of the cluster resource namespace (a secretRef source) was added, changed or deleted.
   */
  record SourceChanged(String name) implements Input {
    public SourceChanged {
      Objects.requireNonNull(name, "name");
    }
  }

  /**
   * The chart's admission policy and its binding, which bound every Secret write the syncer's RBAC
   * allows, went away ({@code inPlace} false) or came back ({@link WriteBounds}). While they are
   * away the core hears every input and queues its work, but decides nothing into a write; when
   * they are back every pair is owed a forced apply, as at a resync: someone may have written under
   * the reserved names while nothing refused it.
   */
  record WriteBoundsChanged(boolean inPlace) implements Input {}

  /** A timer of an {@link Effect.WakeAt} fired. */
  record TimerFired(Timer timer) implements Input {
    public TimerFired {
      Objects.requireNonNull(timer, "timer");
    }
  }

  /** The API server answered an {@link Effect.ApplySecret}; exactly one answer per apply. */
  record ApplyAnswered(Effect.ApplySecret apply, Answer answer) implements Input {
    public ApplyAnswered {
      Objects.requireNonNull(apply, "apply");
      Objects.requireNonNull(answer, "answer");
    }
  }

  /** The API server answered an {@link Effect.WriteStatus}; exactly one answer per write. */
  record StatusAnswered(Effect.WriteStatus write, Answer answer) implements Input {
    public StatusAnswered {
      Objects.requireNonNull(write, "write");
      Objects.requireNonNull(answer, "answer");
    }
  }

  /** The API server answered an {@link Effect.ReleaseGate}; exactly one answer per release. */
  record GateAnswered(Effect.ReleaseGate release, Answer answer) implements Input {
    public GateAnswered {
      Objects.requireNonNull(release, "release");
      Objects.requireNonNull(answer, "answer");
    }
  }

  /** The registry answered an {@link Effect.TryCredential}; exactly one answer per trial. */
  record TrialAnswered(Effect.TryCredential trial, TrialVerdict verdict) implements Input {
    public TrialAnswered {
      Objects.requireNonNull(trial, "trial");
      Objects.requireNonNull(verdict, "verdict");
    }
  }

  /** The plugin ran for an {@link Effect.MintCredential}; exactly one answer per mint. */
  record MintAnswered(Effect.MintCredential mint, MintResult result) implements Input {
    public MintAnswered {
      Objects.requireNonNull(mint, "mint");
      Objects.requireNonNull(result, "result");
    }
  }

  /** The API server answered an {@link Effect.StoreProviderCredential}; exactly one answer each. */
  record StoreAnswered(Effect.StoreProviderCredential store, Answer answer) implements Input {
    public StoreAnswered {
      Objects.requireNonNull(store, "store");
      Objects.requireNonNull(answer, "answer");
    }
  }
}
