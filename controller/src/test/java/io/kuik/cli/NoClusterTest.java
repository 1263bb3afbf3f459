package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Every command that needs a cluster, started with none (no kubeconfig, not in a pod): one line
 * that says so and what to do, exit 1, and nothing dialled (fabric8's last resort, {@code
 * https://kubernetes.default.svc}, answers only inside a pod).
 */
class NoClusterTest {

  @TempDir Path home;
  private String kubeconfig;
  private String userHome;
  private PrintStream stderr;
  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();

  @BeforeEach
  void noKubeconfigAnywhere() {
    assumeTrue(System.getenv("KUBECONFIG") == null, "KUBECONFIG is set for this build");
    assumeTrue(System.getenv("KUBERNETES_SERVICE_HOST") == null, "running inside a pod");
    assumeTrue(System.getenv("KUBERNETES_MASTER") == null, "KUBERNETES_MASTER is set");
    kubeconfig = System.clearProperty("kubeconfig");
    userHome = System.setProperty("user.home", home.toString());
    stderr = System.err;
    System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void putBack() {
    System.setErr(stderr);
    if (kubeconfig != null) {
      System.setProperty("kubeconfig", kubeconfig);
    }
    System.setProperty("user.home", userHome);
  }

  @ParameterizedTest(name = "kuik {0} says in one line that there is no cluster")
  @ValueSource(strings = {"syncer", "webhook", "selftest", "explain", "explain deployment"})
  void saysSoInOneLineAndExitsOne(String command) throws Exception {
    Path tls = Files.createDirectories(home.resolve("tls"));
    List<String> args =
        switch (command) {
          case "syncer" ->
              List.of("syncer", "--cluster-resource-namespace=kuik-system", "--log-format=text");
          case "webhook" ->
              List.of(
                  "webhook",
                  "--cluster-resource-namespace=kuik-system",
                  "--tls-cert-file=" + Files.writeString(tls.resolve("tls.crt"), "certificate"),
                  "--tls-key-file=" + Files.writeString(tls.resolve("tls.key"), "key"),
                  "--log-format=text");
          case "selftest" -> List.of("selftest");
          case "explain deployment" -> List.of("explain", "deployment", "team-a/web");
          default -> List.of("explain", "pod", "team-a/web");
        };
    CommandLine commandLine = Main.commandLine();
    StringWriter err = new StringWriter();
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setOut(new PrintWriter(new StringWriter(), true));

    int exit = commandLine.execute(args.toArray(String[]::new));

    String said = (err + logged.toString(StandardCharsets.UTF_8)).strip();
    List<String> errors =
        said.lines().filter(line -> !line.contains(" INFO ")).toList(); // the start's settings
    assertEquals(1, exit, said);
    assertEquals(1, errors.size(), said);
    assertTrue(
        errors.get(0).contains("kuik " + command.split(" ")[0] + ": no cluster: no kubeconfig"),
        errors.get(0));
    assertTrue(errors.get(0).contains("Point KUBECONFIG"), errors.get(0));
  }
}
