package io.kuik.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * A command of the simulator's runnable jar ({@code plan}, {@code simulate}) asked of a jar that
 * lacks it, the image's or the controller's: it says where the command lives and exits 2, rather
 * than picocli's top-level help and 0, which a script would take for success.
 */
@Command(
    description = {
      "Not in this jar: in the simulator's runnable jar, kuik-simulator-<version>-all.jar."
    })
final class InSimulatorJar implements Callable<Integer> {

  /** The commands the simulator's jar adds, which this one may lack. */
  static final List<String> COMMANDS = List.of("plan", "simulate");

  private final String name;

  @Spec CommandSpec spec;

  @Unmatched List<String> arguments = new ArrayList<>();

  InSimulatorJar(String name) {
    this.name = name;
  }

  @Override
  public Integer call() {
    String version = new Main.Version().getVersion()[0].replace("kuik ", "");
    String jar = "kuik-simulator-" + (version.startsWith("(") ? "<version>" : version) + "-all.jar";
    spec.commandLine()
        .getErr()
        .println(
            "kuik "
                + name
                + " is not in this jar: it runs kuik on a simulated cluster and comes with the"
                + " simulator's runnable jar, "
                + jar
                + " (./mvnw -B -pl simulator -am package -DskipTests writes it to"
                + " simulator/target/). Run: java -jar "
                + jar
                + " "
                + name
                + " --help");
    return 2;
  }
}
