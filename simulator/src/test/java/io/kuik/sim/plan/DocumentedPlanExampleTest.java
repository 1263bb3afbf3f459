package io.kuik.sim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/cli.md's worked example of {@code kuik plan}: the command of its {@code sh} block, run on
 * the repository's {@code docs/examples/plan}, prints exactly its {@code text} block. Change the
 * example, and this test says what to paste.
 */
class DocumentedPlanExampleTest {

  static final String SECTION = "## Planning a change offline: `kuik plan`";

  @Test
  void theDocumentedExampleIsWhatPlanPrints() throws IOException {
    Path root = repositoryRoot();
    String doc = Files.readString(root.resolve("docs/cli.md"));
    int section = doc.indexOf(SECTION);
    assertTrue(section >= 0, "docs/cli.md has the section " + SECTION);
    String command = block(doc, section, "```sh\n");
    String expected = block(doc, section, "```text\n");

    List<String> words = new ArrayList<>(Arrays.asList(command.strip().split("\\s+")));
    int plan = words.indexOf("plan");
    assertTrue(plan > 0, "the sh block runs kuik plan: " + command);
    List<String> args = new ArrayList<>(words.subList(plan + 1, words.size()));
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).startsWith("docs/")) {
        args.set(i, root.resolve(args.get(i)).toString());
      }
    }
    PlanRun run = PlanRun.of(args.toArray(String[]::new));

    assertEquals(expected, run.out(), "paste this output into docs/cli.md");
    assertEquals(1, run.exitCode(), "docs/cli.md says the example exits 1");
  }

  private static String block(String text, int from, String opening) {
    int start = text.indexOf(opening, from);
    assertTrue(start >= 0, "no " + opening.strip() + " block after the section");
    start += opening.length();
    int end = text.indexOf("```\n", start);
    return text.substring(start, end);
  }

  private static Path repositoryRoot() {
    for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        dir != null;
        dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("docs/cli.md"))
          && Files.isDirectory(dir.resolve("docs/examples/plan"))) {
        return dir;
      }
    }
    throw new AssertionError("no repository root (docs/cli.md and docs/examples/plan) above here");
  }
}
