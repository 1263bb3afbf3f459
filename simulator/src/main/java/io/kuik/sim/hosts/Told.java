package io.kuik.sim.hosts;

import io.kuik.cli.Main;
import io.kuik.cli.SelftestCommand;
import io.kuik.cli.SyncerCommand;
import io.kuik.cli.WebhookCommand;
import io.kuik.kube.syncer.SyncerRuntimeSettings;
import io.kuik.kube.webhook.WebhookRuntimeSettings;
import io.kuik.selftest.SelftestSettings;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * What a command line tells a kuik process, read by {@code kuik}'s own command line and its
 * commands' own checks: the simulator runs each component with the settings the chart's rendered
 * arguments give it, never with names or values of its own.
 */
public final class Told {

  private Told() {}

  /**
   * {@code kuik syncer ...} as the production command reads it, each file a flag names read from
   * {@code mounted} (the files of its pod, by path): one that is not there cannot be read.
   */
  public static SyncerRuntimeSettings syncer(List<String> args, Map<String, String> mounted) {
    return ((SyncerCommand) parsed(args, "syncer"))
        .settings(
            path -> {
              String text = mounted.get(path.toString());
              if (text == null) {
                throw new java.nio.file.NoSuchFileException(path.toString());
              }
              return text;
            });
  }

  /** {@code kuik webhook ...}, its TLS files left unread (the simulator models no TLS). */
  public static WebhookRuntimeSettings webhook(List<String> args) {
    return ((WebhookCommand) parsed(args, "webhook")).settings(false);
  }

  /** {@code kuik selftest ...}. */
  public static SelftestSettings selftest(List<String> args) {
    return ((SelftestCommand) parsed(args, "selftest")).settings();
  }

  private static Object parsed(List<String> args, String command) {
    if (args.isEmpty() || !args.get(0).equals(command)) {
      throw new IllegalArgumentException("not a kuik " + command + " command line: " + args);
    }
    CommandLine kuik = Main.commandLine();
    kuik.parseArgs(args.toArray(String[]::new));
    return kuik.getSubcommands().get(command).getCommand();
  }
}
