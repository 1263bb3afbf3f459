package io.kuik.kube;

import io.kuik.model.Redactor;
import java.util.Objects;

/**
 * The redactor every log line of the process passes
 * (docs/decisions/0060-redaction-as-a-property.md): the command's log set-up reads it for each
 * line, and the process that knows the credentials (the syncer's core, the webhook's informer of
 * the source Secrets) replaces it as they change. A log line is written by any thread, with no path
 * to the core: this one value is the hand-over.
 */
public final class LogRedaction {

  private static volatile Redactor current = Redactor.none();

  private LogRedaction() {}

  /** The redactor of the credentials the process knows now. */
  public static Redactor current() {
    return current;
  }

  /** From now on, log lines pass {@code redactor}. */
  public static void use(Redactor redactor) {
    current = Objects.requireNonNull(redactor, "redactor");
  }
}
