package io.kuik.sim.chart;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders the chart's included files the way {@code tpl (.Files.Get ...) .} does, for the only
 * placeholders these files may use: {@code {{ .Release.Name }}}, {@code {{ .Release.Namespace }}}
 * and three helpers of chart/templates/_helpers.tpl that name identities, {@code include
 * "kuik.syncer.serviceAccountName" .}, {@code include "kuik.webhook.serviceAccountName" .} and
 * {@code include "kuik.syncerUsernames" .} (a CEL list of quoted user names). Any other template
 * action is refused, so that what the simulator evaluates is exactly what Helm installs and no
 * other Helm logic hides in these files; SimulatorLoadsWhatHelmRendersTest compares the two.
 */
final class ReleaseTemplate {

  private static final Pattern ACTION = Pattern.compile("\\{\\{(.*?)}}");
  private static final Pattern NAME = Pattern.compile("\\s*\\.Release\\.Name\\s*");
  private static final Pattern NAMESPACE = Pattern.compile("\\s*\\.Release\\.Namespace\\s*");
  private static final Pattern INCLUDE =
      Pattern.compile("\\s*include\\s+\"([a-zA-Z.]+)\"\\s+\\.\\s*");

  private ReleaseTemplate() {}

  static String render(String text, Release release, String source) {
    var out = new StringBuilder(text.length());
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (i > 0) {
        out.append('\n');
      }
      out.append(renderLine(lines[i], release, source, i + 1));
    }
    return out.toString();
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
            + " {{ .Release.Namespace }} and the identity helpers kuik.syncer.serviceAccountName,"
            + " kuik.webhook.serviceAccountName and kuik.syncerUsernames, so that the simulator"
            + " renders them without Helm."
            + " Move any other logic to the template that includes the file.");
  }
}
