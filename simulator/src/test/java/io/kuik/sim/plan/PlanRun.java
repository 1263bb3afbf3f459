package io.kuik.sim.plan;

import io.kuik.cli.Main;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code kuik plan ...} run in this JVM through the same command line as the jar's. */
record PlanRun(int exitCode, String out, String err) {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  static PlanRun of(String... args) {
    CommandLine kuik = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    // Buffered and never flushed here, as a pipe is: what the test reads is what plan flushed.
    kuik.setOut(new PrintWriter(new BufferedWriter(out, 1 << 20), false));
    kuik.setErr(new PrintWriter(new BufferedWriter(err, 1 << 20), false));
    String[] all = new String[args.length + 1];
    all[0] = "plan";
    System.arraycopy(args, 0, all, 1, args.length);
    int code = kuik.execute(all);
    return new PlanRun(code, out.toString(), err.toString());
  }

  JsonNode json() {
    return JSON.readTree(out);
  }

  /** Writes a manifest file into {@code folder} and returns the folder. */
  static Path write(Path folder, String file, String yaml) {
    try {
      Files.createDirectories(folder);
      Files.writeString(folder.resolve(file), yaml);
      return folder;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
