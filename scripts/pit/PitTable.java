import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * PIT's score per package, from the {@code mutations.xml} of one or more runs, as the Markdown
 * table of docs/performance.md; then every mutation that no test detected, one a line, as {@code
 * Class.method:line MUTATOR (description)}. With {@code --equivalents FILE}, a surviving mutation
 * whose line is in that file (the list of equivalent mutations beside the scores) counts as
 * explained, and the rest are printed as unexplained; a line of the list no survivor matches any
 * more is printed as stale.
 *
 * <p>{@code java scripts/pit/PitTable.java [--equivalents docs/mutation-equivalents.md] XML...}
 */
public class PitTable {

  private static final Pattern KEY = Pattern.compile("`([\\w.$]+\\.[\\w$<>]+:\\d+ [A-Za-z_]+)`");

  private static final Pattern HEADING = Pattern.compile("## `([\\w.]+)`");

  record Mutation(String pkg, String key, String status, String description) {}

  public static void main(String[] args) throws Exception {
    // Each equivalent with the package whose heading it is listed under.
    Map<String, String> equivalents = new TreeMap<>();
    List<Path> reports = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--equivalents")) {
        String pkg = "";
        for (String line : Files.readAllLines(Path.of(args[++i]))) {
          Matcher heading = HEADING.matcher(line);
          if (heading.matches()) {
            pkg = heading.group(1);
          }
          Matcher m = KEY.matcher(line);
          while (m.find()) {
            equivalents.put(m.group(1), pkg);
          }
        }
      } else {
        reports.add(Path.of(args[i]));
      }
    }
    List<Mutation> mutations = new ArrayList<>();
    for (Path report : reports) {
      read(report, mutations);
    }
    Map<String, int[]> byPackage = new TreeMap<>();
    for (Mutation m : mutations) {
      int[] n = byPackage.computeIfAbsent(m.pkg, p -> new int[5]);
      n[0]++;
      switch (m.status) {
        case "KILLED", "MEMORY_ERROR", "RUN_ERROR" -> n[1]++;
        case "TIMED_OUT" -> n[2]++;
        case "SURVIVED" -> n[3]++;
        default -> n[4]++; // NO_COVERAGE, NON_VIABLE
      }
    }
    System.out.println(
        "| package | mutations | killed | timed out | survived | no coverage | score |");
    System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    int[] all = new int[5];
    byPackage.forEach(
        (pkg, n) -> {
          System.out.println(row("`" + pkg + "`", n));
          for (int i = 0; i < 5; i++) {
            all[i] += n[i];
          }
        });
    System.out.println(row("all", all));
    System.out.println();
    Set<String> matched = new TreeSet<>();
    for (Mutation m : mutations) {
      if (!m.status.equals("SURVIVED") && !m.status.equals("NO_COVERAGE")) {
        continue;
      }
      boolean explained = equivalents.containsKey(m.key);
      if (explained) {
        matched.add(m.key);
      }
      System.out.println(
          (explained ? "equivalent  " : m.status.equals("SURVIVED") ? "SURVIVED    " : "NO_COVERAGE ")
              + m.key
              + " ("
              + m.description
              + ")");
    }
    // Stale only in a package these reports measured: the others were not looked at.
    for (Map.Entry<String, String> equivalent : equivalents.entrySet()) {
      String key = equivalent.getKey();
      if (byPackage.containsKey(equivalent.getValue()) && !matched.contains(key)) {
        System.out.println("stale       " + key + " (listed as equivalent, no such survivor)");
      }
    }
  }

  private static String row(String name, int[] n) {
    double score = n[0] == 0 ? 100 : 100.0 * (n[1] + n[2]) / n[0];
    return String.format(
        java.util.Locale.ROOT,
        "| %s | %,d | %,d | %,d | %,d | %,d | %d %% |",
        name,
        n[0],
        n[1],
        n[2],
        n[3],
        n[4],
        (int) Math.floor(score));
  }

  private static void read(Path report, List<Mutation> into) throws Exception {
    NodeList nodes =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(report.toFile())
            .getElementsByTagName("mutation");
    for (int i = 0; i < nodes.getLength(); i++) {
      Element e = (Element) nodes.item(i);
      String cls = text(e, "mutatedClass");
      String outer = cls.contains("$") ? cls.substring(0, cls.indexOf('$')) : cls;
      String pkg = outer.substring(0, outer.lastIndexOf('.'));
      String mutator = text(e, "mutator");
      mutator = mutator.substring(mutator.lastIndexOf('.') + 1).replace("Mutator", "");
      String key =
          cls.substring(pkg.length() + 1)
              + "."
              + text(e, "mutatedMethod")
              + ":"
              + text(e, "lineNumber")
              + " "
              + mutator;
      into.add(new Mutation(pkg, key, e.getAttribute("status"), text(e, "description")));
    }
  }

  private static String text(Element e, String tag) {
    NodeList found = e.getElementsByTagName(tag);
    return found.getLength() == 0 ? "" : found.item(0).getTextContent();
  }
}
