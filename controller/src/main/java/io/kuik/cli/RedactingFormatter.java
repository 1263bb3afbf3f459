package io.kuik.cli;

import io.kuik.kube.LogRedaction;
import io.kuik.model.Redactor;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * Every log line through {@link LogRedaction}'s redactor, whichever format writes it: the line is
 * built by the format, then any form of a credential the process knows is taken out of it, stack
 * traces included (docs/decisions/0060-redaction-as-a-property.md). The message and its parameters
 * are redacted before the format runs too, so that a value the format cuts short is cut after its
 * credential went, not through it.
 */
final class RedactingFormatter extends Formatter {

  private final Formatter format;

  RedactingFormatter(Formatter format) {
    this.format = format;
  }

  @Override
  public String format(LogRecord record) {
    Redactor redactor = LogRedaction.current();
    if (redactor.isEmpty()) {
      return format.format(record);
    }
    record.setMessage(redactor.redact(record.getMessage()));
    Object[] parameters = record.getParameters();
    if (parameters != null) {
      for (int i = 0; i < parameters.length; i++) {
        // A domain value (a pair, a pod) keeps its type, and so its log fields, unless it shows
        // one.
        if (parameters[i] != null && redactor.shows(String.valueOf(parameters[i]))) {
          parameters[i] = redactor.redact(String.valueOf(parameters[i]));
        }
      }
    }
    return redactor.redact(format.format(record));
  }
}
