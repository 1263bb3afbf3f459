package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code kuik explain}'s command line, refused before any cluster is asked. */
class ExplainCommandLineTest {

  @Test
  void anInsecureRegistryWrittenAsAURLExitsTwoNamingIt() {
    CommandLine commandLine = Main.commandLine();
    StringWriter err = new StringWriter();
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setOut(new PrintWriter(new StringWriter(), true));

    int exit =
        commandLine.execute(
            "explain",
            "pod",
            "team-a/web",
            "--insecure-registries=registry.local:5000,http://mirror.lan");

    assertEquals(2, exit, err::toString);
    assertTrue(
        err.toString().contains("Invalid --insecure-registries entry 'http://mirror.lan'"),
        err::toString);
  }
}
