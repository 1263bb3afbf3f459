package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The controller's jar (and the image) lacks {@code plan} and {@code simulate}: asked for one, it
 * names the jar that has it and exits 2, whatever follows, {@code --help} included.
 */
class CommandsOfTheSimulatorJarTest {

  @ParameterizedTest
  @ValueSource(strings = {"plan --help", "plan -f manifests/", "simulate explore --seed 1", "plan"})
  void namesTheSimulatorsJarAndExitsTwo(String arguments) {
    CommandLine kuik = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    kuik.setOut(new PrintWriter(out, true));
    kuik.setErr(new PrintWriter(err, true));

    int code = kuik.execute(arguments.split(" "));

    String command = arguments.split(" ")[0];
    assertEquals(2, code, err::toString);
    assertTrue(err.toString().contains("kuik " + command + " is not in this jar"), err::toString);
    // Built from the source tree, the jar has no version: the name is given as a pattern.
    assertTrue(
        err.toString().contains("java -jar kuik-simulator-<version>-all.jar"), err::toString);
    assertTrue(err.toString().contains("-all.jar " + command + " --help"), err::toString);
    assertEquals("", out.toString(), "no help that reads as a success");
  }

  @org.junit.jupiter.api.Test
  void theTopLevelHelpSaysWhereTheyLive() {
    String help = Main.commandLine().getUsageMessage();

    assertTrue(help.contains("plan"), help);
    assertTrue(help.contains("in the simulator's runnable jar"), help);
  }
}
