package io.kuik.cli;

import io.kuik.model.Durations;
import io.kuik.model.ResourceId;
import io.kuik.syncer.Pair;
import io.kuik.webhook.AdmittedPod;
import java.text.MessageFormat;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.LogRecord;

/**
 * The structured-argument convention of kuik's log lines. The core and the webhook log through
 * {@code System.Logger} with {@code {0}}-style parameters and never depend on the edge; the domain
 * values among those parameters carry the fields a log collector indexes:
 *
 * <ul>
 *   <li>a {@link Pair}: {@code pair}, {@code kind}, {@code name}, {@code namespace};
 *   <li>a {@link ResourceId}: {@code kind}, {@code name};
 *   <li>an {@link AdmittedPod}: {@code namespace}, {@code pod}.
 * </ul>
 *
 * The JSON layout writes them as fields beside the message; both layouts write a {@link Duration}
 * parameter as {@link Durations#text} does ({@code 1m4s}), not {@code PT1M4S}.
 */
final class LogFields {

  private LogFields() {}

  /** The fields the record's parameters carry, first value of each field wins. */
  static Map<String, String> of(LogRecord record) {
    Map<String, String> fields = new LinkedHashMap<>();
    Object[] parameters = record.getParameters();
    if (parameters == null) {
      return fields;
    }
    for (Object parameter : parameters) {
      if (parameter instanceof Pair pair) {
        fields.putIfAbsent("pair", pair.toString());
        resource(fields, pair.resource());
        fields.putIfAbsent("namespace", pair.namespace());
      } else if (parameter instanceof ResourceId id) {
        resource(fields, id);
      } else if (parameter instanceof AdmittedPod pod) {
        fields.putIfAbsent("namespace", pod.namespace());
        fields.putIfAbsent("pod", pod.name());
      }
    }
    return fields;
  }

  /** The record's message with its parameters, durations written as {@code 1m4s}. */
  static String message(LogRecord record) {
    String message = record.getMessage();
    Object[] parameters = record.getParameters();
    if (message == null || parameters == null || parameters.length == 0 || !message.contains("{")) {
      return message == null ? "" : message;
    }
    Object[] shown = parameters.clone();
    for (int i = 0; i < shown.length; i++) {
      if (shown[i] instanceof Duration duration) {
        shown[i] = Durations.text(duration);
      }
    }
    try {
      return MessageFormat.format(message, shown);
    } catch (IllegalArgumentException notAPattern) {
      return message;
    }
  }

  private static void resource(Map<String, String> fields, ResourceId id) {
    fields.putIfAbsent("kind", id.kind().kind());
    fields.putIfAbsent("name", id.name());
  }
}
