package io.kuik.cli;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The one entry point of the kuik image: {@code java -jar kuik.jar <command> [flags]}. The commands
 * are the {@link KuikSubcommand}s on the classpath ({@code syncer} and {@code webhook} here, {@code
 * simulate} where the simulator is on the classpath). Exit codes: 0 done, 1 failed or lost the
 * lease, 2 bad command line.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    if (System.getProperty("java.util.logging.manager") == null) {
      System.setProperty("java.util.logging.manager", ShutdownLogManager.class.getName());
    }
    Signals.handleTermination();
    // Every command logs one text line per event, warnings and worse, on standard error (the
    // CLIs: explain, plan, simulate); syncer and webhook set their own format and level from
    // their flags (JSON by default, as the image runs them).
    LogSetup.configure(LogFormat.text, LogLevel.warn);
    System.exit(execute(args));
  }

  /** Runs one command line in this process and returns its exit code (tests use this). */
  public static int execute(String... args) {
    return commandLine().execute(args);
  }

  /** The command line with every subcommand found, sorted by name for a stable {@code --help}. */
  public static CommandLine commandLine() {
    CommandLine root = new CommandLine(new Kuik());
    Map<String, CommandLine> commands = new TreeMap<>();
    ServiceLoader.load(KuikSubcommand.class).stream()
        .map(ServiceLoader.Provider::get)
        .map(CommandLine::new)
        .forEach(sub -> commands.put(sub.getCommandName(), sub));
    for (String name : InSimulatorJar.COMMANDS) {
      commands.computeIfAbsent(name, absent -> new CommandLine(new InSimulatorJar(absent)));
    }
    commands.forEach(root::addSubcommand);
    return HelpText.apply(root);
  }

  @Command(
      name = "kuik",
      mixinStandardHelpOptions = true,
      versionProvider = Version.class,
      description = "kube-image-keeper's injected pull secrets. Run one of the commands below.")
  static final class Kuik implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() {
      throw new ParameterException(spec.commandLine(), "Missing a command: name one of them");
    }
  }

  /** The version the jar's manifest carries. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Main.class.getPackage().getImplementationVersion();
      return new String[] {"kuik " + (version == null ? "(development build)" : version)};
    }
  }
}
