package io.kuik.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code --help} that wraps only at spaces. picocli wraps with the JDK's line BreakIterator, which
 * breaks after a dot, a colon or a hyphen and before a bracket: {@code meta.helm.|
 * sh/release-name}, {@code http:| //...}, {@code host[:| port]}, so a literal a reader copies came
 * out in two pieces. Here the command's description and every option's are wrapped at spaces; a
 * word longer than the line runs past it whole. The synopsis is {@code [OPTIONS]} ({@code
 * abbreviateSynopsis}), which never breaks.
 */
final class HelpText {

  private HelpText() {}

  /** Uses this help for {@code commandLine} and every subcommand it has now. */
  static CommandLine apply(CommandLine commandLine) {
    abbreviateSynopsis(commandLine);
    return commandLine.setHelpFactory(SpacesOnly::new);
  }

  private static void abbreviateSynopsis(CommandLine commandLine) {
    commandLine.getCommandSpec().usageMessage().abbreviateSynopsis(true);
    commandLine.getSubcommands().values().forEach(HelpText::abbreviateSynopsis);
  }

  /**
   * One line of a description, wrapped at {@code width}: its continuation lines under its text,
   * which starts after its indent, or after a term and two spaces ({@code " policy the release's
   * ..."}), so that a list of terms reads as a table.
   */
  static List<String> wrapHanging(String line, int width) {
    String text = line.stripLeading();
    int indent = line.length() - text.length();
    int term = text.indexOf("  ");
    int hanging = term < 0 ? indent : indent + text.indexOf(text.substring(term).strip(), term);
    List<String> wrapped = wrap(line.substring(indent), width - indent);
    List<String> lines = new ArrayList<>();
    lines.add(" ".repeat(indent) + wrapped.get(0));
    if (wrapped.size() > 1) {
      String rest = String.join(" ", wrapped.subList(1, wrapped.size()));
      wrap(rest, width - hanging).forEach(more -> lines.add(" ".repeat(hanging) + more));
    }
    return lines;
  }

  /** {@code text} in lines of at most {@code width} characters, broken at spaces only. */
  static List<String> wrap(String text, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ", -1)) {
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      } else if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    lines.add(line.toString());
    return lines;
  }

  private static final class SpacesOnly extends Help {

    SpacesOnly(CommandSpec spec, ColorScheme colorScheme) {
      super(spec, colorScheme);
    }

    @Override
    public Layout createDefaultLayout() {
      Layout layout = super.createDefaultLayout();
      TextTable table = new SpacesOnlyTable(colorScheme(), layout.textTable());
      return new Layout(colorScheme(), table, layout.optionRenderer(), layout.parameterRenderer());
    }

    @Override
    public String description(Object... params) {
      StringBuilder out = new StringBuilder();
      int width = commandSpec().usageMessage().width();
      for (String paragraph : commandSpec().usageMessage().description()) {
        for (String line : String.format(paragraph, params).split("\\R", -1)) {
          for (String wrapped : wrapHanging(line, width)) {
            out.append(wrapped).append(System.lineSeparator());
          }
        }
      }
      return out.toString();
    }
  }

  /** picocli's table, with the wrapping columns (the descriptions) wrapped at spaces. */
  private static final class SpacesOnlyTable extends TextTable {

    private final ColorScheme colorScheme;

    SpacesOnlyTable(ColorScheme colorScheme, TextTable like) {
      super(colorScheme, like.columns());
      this.colorScheme = colorScheme;
      this.indentWrappedLines = like.indentWrappedLines;
    }

    @Override
    public Cell putValue(int row, int col, Text value) {
      Column column = columns()[col];
      int room = column.width - column.indent - 1;
      if (column.overflow != Column.Overflow.WRAP
          || value == null
          || value.plainString().length() <= room) {
        return super.putValue(row, col, value);
      }
      Cell cell = null;
      int at = row;
      for (String line : wrap(value.plainString(), room)) {
        while (at >= rowCount()) {
          addEmptyRow();
        }
        cell = super.putValue(at, col, colorScheme.text(line));
        at = cell.row + 1;
      }
      return cell;
    }
  }
}
