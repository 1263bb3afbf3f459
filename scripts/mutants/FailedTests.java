import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Prints the tests that failed in the Surefire reports under the given folders, one a line, as
 * {@code class: test: first line of the message}; an explorer test also names the seeds that
 * failed. The last line counts them. Run with {@code java scripts/mutants/FailedTests.java DIR...}.
 */
public class FailedTests {

  private static final Pattern SEED = Pattern.compile("explore seed=(\\d+)");

  public static void main(String[] args) throws Exception {
    List<String> failed = new ArrayList<>();
    int run = 0;
    for (String dir : args) {
      Path folder = Path.of(dir);
      if (!Files.isDirectory(folder)) {
        continue;
      }
      for (Path report : reports(folder)) {
        NodeList cases =
            DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(report.toFile())
                .getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
          Element testcase = (Element) cases.item(i);
          run++;
          Element problem = firstChild(testcase, "failure", "error");
          if (problem != null) {
            failed.add(describe(testcase, problem));
          }
        }
      }
    }
    failed.forEach(System.out::println);
    System.out.println(failed.size() + " of " + run + " tests failed");
  }

  private static List<Path> reports(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files
          .filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml"))
          .sorted()
          .toList();
    }
  }

  private static Element firstChild(Element testcase, String... names) {
    for (String name : names) {
      NodeList found = testcase.getElementsByTagName(name);
      if (found.getLength() > 0) {
        return (Element) found.item(0);
      }
    }
    return null;
  }

  private static String describe(Element testcase, Element problem) {
    String text = problem.getAttribute("message") + "\n" + problem.getTextContent();
    String first = text.strip().lines().findFirst().orElse("");
    if (first.length() > 200) {
      first = first.substring(0, 200) + "...";
    }
    String line =
        testcase.getAttribute("classname") + ": " + testcase.getAttribute("name") + ": " + first;
    TreeSet<Long> seeds = new TreeSet<>();
    Matcher m = SEED.matcher(text);
    while (m.find()) {
      seeds.add(Long.parseLong(m.group(1)));
    }
    return seeds.isEmpty() ? line : line + " [explorer seeds failing: " + seeds + "]";
  }
}
