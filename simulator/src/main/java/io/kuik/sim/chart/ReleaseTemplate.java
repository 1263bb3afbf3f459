package io.kuik.sim.chart;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders the chart's included files the way {@code tpl (.Files.Get ...) .} does, for the only
 * placeholders these files may use: {@code {{ .Release.Name }}}, {@code {{ .Release.Namespace }}},
 * the helpers of chart/templates/_helpers.tpl that name objects ({@code include "kuik.fullname" .},
 * {@code include "kuik.name" .}), the three that name identities ({@code include
 * "kuik.syncer.serviceAccountName" .}, {@code include "kuik.webhook.serviceAccountName" .} and
 * {@code include "kuik.syncerUsernames" .}, a CEL list of quoted user names), and a line holding
 * only {@code {{- include "kuik.commonLabels" . | nindent N }}} (the labels, one a line, or no
 * line). Any other template action is refused, so that what the simulator evaluates is exactly what
 * Helm installs and no other Helm logic hides in these files; SimulatorLoadsWhatHelmRendersTest
 * compares the two.
 */
final class ReleaseTemplate {

  private static final Pattern ACTION = Pattern.compile("\\{\\{(.*?)}}");
  private static final Pattern NAME = Pattern.compile("\\s*\\.Release\\.Name\\s*");
  private static final Pattern NAMESPACE = Pattern.compile("\\s*\\.Release\\.Namespace\\s*");
  private static final Pattern INCLUDE =
      Pattern.compile("\\s*include\\s+\"([a-zA-Z.]+)\"\\s+\\.\\s*");
  private static final Pattern COMMON_LABELS =
      Pattern.compile(
          "\\s*\\{\\{-\\s*include\\s+\"kuik\\.commonLabels\"\\s+\\.\\s*\\|\\s*nindent\\s+(\\d+)\\s*}}\\s*");

  private ReleaseTemplate() {}

  static String render(String text, Release release, String source) {
    var out = new StringBuilder(text.length());
    String[] lines = text.split("\n", -1);
    boolean first = true;
    for (int i = 0; i < lines.length; i++) {
      Matcher labels = COMMON_LABELS.matcher(lines[i]);
      if (labels.matches()) {
        // {{- trims the line break before it; nindent writes one before each label.
        String indent = " ".repeat(Integer.parseInt(labels.group(1)));
        release
            .commonLabels()
            .forEach(
                (key, value) ->
                    out.append('\n')
                        .append(indent)
                        .append(quoted(key))
                        .append(": ")
                        .append(quoted(value)));
        continue;
      }
      if (!first) {
        out.append('\n');
      }
      first = false;
      out.append(renderLine(lines[i], release, source, i + 1));
    }
    return out.toString();
  }

  /** A YAML double-quoted scalar (JSON's string syntax, which YAML reads the same). */
  private static String quoted(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  private static String renderLine(String line, Release release, String source, int lineNumber) {
    Matcher action = ACTION.matcher(line);
    var out = new StringBuilder();
    int last = 0;
    while (action.find()) {
      out.append(line, last, action.start());
      String inside = action.group(1);
      if (NAME.matcher(inside).matches()) {
        out.append(release.name());
      } else if (NAMESPACE.matcher(inside).matches()) {
        out.append(release.namespace());
      } else if (helper(inside, release) != null) {
        out.append(helper(inside, release));
      } else {
        throw unsupported(source, lineNumber, action.group());
      }
      last = action.end();
    }
    String rest = line.substring(last);
    if (rest.contains("{{") || rest.contains("}}")) {
      throw unsupported(source, lineNumber, rest.trim());
    }
    return out.append(rest).toString();
  }

  /** What the named helper renders for the release, as _helpers.tpl defines it; null if unknown. */
  private static String helper(String action, Release release) {
    Matcher include = INCLUDE.matcher(action);
    if (!include.matches()) {
      return null;
    }
    switch (include.group(1)) {
      case "kuik.fullname":
        return release.fullname();
      case "kuik.name":
        return release.appName();
      case "kuik.syncer.serviceAccountName":
        return release.syncerServiceAccount();
      case "kuik.webhook.serviceAccountName":
        return release.webhookServiceAccount();
      case "kuik.syncerUsernames":
        return "["
            + String.join(
                ", ", release.syncerUsernames().stream().map(name -> "'" + name + "'").toList())
            + "]";
      default:
        return null;
    }
  }

  private static ChartException unsupported(String source, int line, String action) {
    return new ChartException(
        source
            + ":"
            + line
            + ": unsupported template action "
            + action
            + "; the files under chart/files may only use {{ .Release.Name }},"
            + " {{ .Release.Namespace }}, the naming helpers kuik.fullname and kuik.name, the"
            + " identity helpers kuik.syncer.serviceAccountName, kuik.webhook.serviceAccountName"
            + " and kuik.syncerUsernames, and a line {{- include \"kuik.commonLabels\" . | nindent"
            + " N }}, so that the simulator renders them without Helm."
            + " Move any other logic to the template that includes the file.");
  }
}
