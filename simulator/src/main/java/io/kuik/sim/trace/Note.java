package io.kuik.sim.trace;

import java.time.Instant;
import java.util.Objects;

/**
 * A record that is not a request nor a watch event: a process's incarnation starting or ending, a
 * fault window opening or closing, a registry's pull, probe or outage, a webhook that failed open,
 * an effect the syncer's core returned. Each kind is its own type, so that a checker matches the
 * type and its enums, never a word.
 */
public sealed interface Note extends TraceRecord
    permits Note.Incarnation,
        Note.FaultWindow,
        Note.RegistryNote,
        Note.FailedOpen,
        Note.SyncerEffect,
        Note.WriteBounds,
        Note.ProviderNote {

  @Override
  default String family() {
    return "Note";
  }

  /** A process of kuik's: the syncer or the webhook. */
  enum Process {
    SYNCER,
    WEBHOOK;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** How an incarnation begins or ends. */
  enum Edge {
    START,
    STOP,
    CRASH
  }

  /**
   * A process under {@code actor} started, stopped or crashed; {@code number} counts the process's
   * incarnations from 1. A stop and a crash both lose the process's memory.
   */
  record Incarnation(Instant at, Actor actor, Process process, Edge edge, int number)
      implements Note {
    public Incarnation {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(actor, "actor");
      Objects.requireNonNull(process, "process");
      Objects.requireNonNull(edge, "edge");
    }

    @Override
    public Columns columns() {
      return new Columns(actor.name(), edge.name(), process.label(), "incarnation " + number);
    }
  }

  /** The faults whose windows the trace marks, with the words the timeline gives their edges. */
  enum Fault {
    /** Every request answered 503. */
    API_OUTAGE("OUTAGE", "RECOVERED"),
    /** The admission policy cannot be evaluated. */
    POLICY_FAILURE("POLICY FAILS", "POLICY HEALS"),
    /** Watch events to the syncer lost or late. */
    WATCH_FAULT("WATCH-FAULT", "WATCH-HEALED"),
    /** The admission policy or its binding deleted, until it is created again. */
    POLICY_AWAY("POLICY AWAY", "POLICY BACK");

    private final String opens;
    private final String heals;

    Fault(String opens, String heals) {
      this.opens = opens;
      this.heals = heals;
    }
  }

  /**
   * A fault window opened ({@code opens}) or healed on {@code subject} (the API server, a policy's
   * name, the syncer's watches), with what the timeline says of it.
   */
  record FaultWindow(Instant at, Fault fault, boolean opens, String subject, String detail)
      implements Note {
    public FaultWindow {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(fault, "fault");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public Columns columns() {
      return new Columns(Actor.FAULT.name(), opens ? fault.opens : fault.heals, subject, detail);
    }
  }

  /** What a registry saw. */
  enum RegistryEvent {
    PULL,
    PROBE,
    /** A credential tried ahead of any pull: the token flow at {@code /v2/}. */
    LOGIN,
    DOWN,
    UP
  }

  /**
   * A registry {@code host} answered a pull or a probe of {@code subject} (an image), a login (the
   * subject the paths whose pull scope was asked), or went down or up (the subject then empty, or
   * the repository that went down); {@code outcome} says how, in the words of kuik's probe outcomes
   * and whose credential it was, never the credential.
   */
  record RegistryNote(Instant at, Actor host, RegistryEvent event, String subject, String outcome)
      implements Note {
    public RegistryNote {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(event, "event");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(outcome, "outcome");
    }

    @Override
    public Columns columns() {
      return new Columns(host.name(), event.name(), subject, outcome);
    }
  }

  /**
   * A mutating webhook that failed under failurePolicy Ignore: the API server went on without it,
   * with this message about the call.
   */
  record FailedOpen(Instant at, Actor webhook, String subject, String message) implements Note {
    public FailedOpen {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(webhook, "webhook");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(message, "message");
    }

    @Override
    public Columns columns() {
      return new Columns(webhook.name(), "FAILED-OPEN", subject, message);
    }
  }

  /** An effect of the syncer's core (io.kuik.syncer.Effect), by kind. */
  enum EffectKind {
    APPLY,
    STATUS,
    EVENT,
    WAKE,
    RELEASE,
    /** A credential's trial: the subject is the registry, the detail the paths (no credential). */
    TRIAL,
    /** A provider plugin run: the subject is the provider, the detail the image asked about. */
    MINT,
    /** A provider credential kept: the subject is its kuik-provider-* Secret. */
    STORE
  }

  /**
   * An effect the syncer's core returned, as the simulated executor takes it in hand: an apply of
   * the Secret {@code subject} or a status write of the resource {@code subject} (its request
   * follows half a round trip later), an Event on it, or a timer; {@code detail} is the lane of an
   * apply, the reason of an Event, the time of a timer.
   */
  record SyncerEffect(Instant at, Actor actor, EffectKind kind, String subject, String detail)
      implements Note {
    public SyncerEffect {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(actor, "actor");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public Columns columns() {
      return new Columns(actor.name(), "EFFECT " + kind.name(), subject, detail);
    }
  }

  /**
   * The syncer under {@code actor} found its admission policy and binding in place ({@code
   * inPlace}: writes allowed) or not (writes held), and why.
   */
  record WriteBounds(Instant at, Actor actor, boolean inPlace, String why) implements Note {
    public WriteBounds {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(actor, "actor");
      Objects.requireNonNull(why, "why");
    }

    @Override
    public Columns columns() {
      return new Columns(
          actor.name(), inPlace ? "WRITES-ALLOWED" : "WRITES-HELD", Process.SYNCER.label(), why);
    }
  }

  /** What a cloud's credential service saw of a plugin's run, or of its own outages. */
  enum ProviderEvent {
    /** A plugin ran and asked for a credential. */
    MINT,
    DOWN,
    UP
  }

  /**
   * The cloud provider {@code provider} (named as its plugin) answered a run of its plugin for
   * {@code subject} (the image asked about), or went down or up; {@code outcome} says what it
   * answered: the number of the token it issued and its validity, or how the plugin failed, never
   * the token.
   */
  record ProviderNote(
      Instant at, Actor provider, ProviderEvent event, String subject, String outcome)
      implements Note {
    public ProviderNote {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(event, "event");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(outcome, "outcome");
    }

    @Override
    public Columns columns() {
      return new Columns(provider.name(), event.name(), subject, outcome);
    }
  }
}
