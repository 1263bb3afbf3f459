package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the commands find their cluster, and the words that say so: a named kubeconfig (the system
 * property; KUBECONFIG alike) that does not exist is an error, never a fall-back; a list of paths
 * needs one readable; {@code ~/.kube/config} next; nothing at all is "no cluster". The client
 * retries a failed request twice.
 */
class ClusterConnectionTest {

  @TempDir Path home;
  private String kubeconfig;
  private String userHome;

  @BeforeEach
  void noKubeconfigAnywhere() {
    assumeTrue(System.getenv("KUBECONFIG") == null, "KUBECONFIG is set for this build");
    assumeTrue(System.getenv("KUBERNETES_SERVICE_HOST") == null, "running inside a pod");
    assumeTrue(System.getenv("KUBERNETES_MASTER") == null, "KUBERNETES_MASTER is set");
    kubeconfig = System.clearProperty("kubeconfig");
    userHome = System.setProperty("user.home", home.toString());
  }

  @AfterEach
  void putBack() {
    if (kubeconfig != null) {
      System.setProperty("kubeconfig", kubeconfig);
    } else {
      System.clearProperty("kubeconfig");
    }
    System.setProperty("user.home", userHome);
  }

  private Path kubeconfig(String name, String server) throws Exception {
    return Files.writeString(
        home.resolve(name),
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- {name: c, cluster: {server: \"" + server + "\"}}",
            "- {name: d, cluster: {server: \"https://other.example:6443\"}}",
            "contexts:",
            "- {name: c, context: {cluster: c, user: u}}",
            "- {name: d, context: {cluster: d, user: u}}",
            "current-context: c",
            "users:",
            "- {name: u, user: {token: not-a-secret}}",
            ""));
  }

  @Test
  void aNamedKubeconfigIsUsedAndSaidWithTheServer() throws Exception {
    Path file = kubeconfig("config", "https://api.example:6443");
    System.setProperty("kubeconfig", file.toString());

    ClusterConnection connection = ClusterConnection.resolve();

    assertTrue(connection.found());
    assertEquals(Optional.empty(), connection.noCluster("syncer"));
    assertEquals("kubeconfig " + file + " (system property kubeconfig)", connection.source());
    assertEquals(
        "API server https://api.example:6443/ (from kubeconfig "
            + file
            + " (system property kubeconfig))",
        connection.describe());
    assertEquals(2, connection.config().getRequestRetryBackoffLimit(), "two retries, not ten");
  }

  @Test
  void aContextIsNamedAndPicksItsCluster() throws Exception {
    Path file = kubeconfig("config", "https://api.example:6443");
    System.setProperty("kubeconfig", file.toString());

    ClusterConnection connection = ClusterConnection.resolve("d");

    assertTrue(connection.source().endsWith(" (system property kubeconfig), context d"));
    assertEquals("https://other.example:6443/", connection.config().getMasterUrl());
  }

  @Test
  void aNamedKubeconfigThatDoesNotExistIsAnErrorNotAFallBack() throws Exception {
    kubeconfig(".kube-config-elsewhere", "https://api.example:6443");
    Files.createDirectories(home.resolve(".kube"));
    Files.writeString(
        home.resolve(".kube/config"), Files.readString(home.resolve(".kube-config-elsewhere")));
    System.setProperty("kubeconfig", home.resolve("missing").toString());

    ClusterConnection.Unusable unusable =
        assertThrows(ClusterConnection.Unusable.class, ClusterConnection::resolve);

    assertEquals(
        "the kubeconfig "
            + home.resolve("missing")
            + " (system property kubeconfig) does not exist or cannot be read: fix the path, or"
            + " unset it to use the pod's ServiceAccount",
        unusable.getMessage());
  }

  @Test
  void aListOfKubeconfigsNeedsOneThatCanBeRead() throws Exception {
    Path file = kubeconfig("config", "https://api.example:6443");
    String list = home.resolve("missing") + File.pathSeparator + File.pathSeparator + file;
    System.setProperty("kubeconfig", list);
    assertTrue(ClusterConnection.resolve().found());

    System.setProperty(
        "kubeconfig", home.resolve("missing") + File.pathSeparator + " " + File.pathSeparator);
    assertThrows(ClusterConnection.Unusable.class, ClusterConnection::resolve);
  }

  @Test
  void theUsersKubeconfigComesNext() throws Exception {
    Files.createDirectories(home.resolve(".kube"));
    Files.writeString(
        home.resolve(".kube/config"),
        Files.readString(kubeconfig("template", "https://home.example:6443")));

    ClusterConnection connection = ClusterConnection.resolve();

    assertTrue(connection.found());
    assertEquals("kubeconfig ~/.kube/config", connection.source());
  }

  @Test
  void withNothingThereIsNoClusterAndOneLineSaysWhatToDo() throws Exception {
    ClusterConnection connection = ClusterConnection.resolve();

    assertFalse(connection.found());
    assertEquals(
        Optional.of(
            "kuik explain: no cluster: no kubeconfig (~/.kube/config missing, KUBECONFIG unset)"
                + " and not in a pod. Point KUBECONFIG (or -Dkubeconfig) at a kubeconfig, write"
                + " ~/.kube/config, or run it in a pod of the chart."),
        connection.noCluster("explain"));
  }

  @Test
  void anEmptyEntryOfTheListIsNoPathNotTheWorkingDirectory() {
    // split keeps a leading empty entry; Path.of("") is the working directory, readable.
    System.setProperty("kubeconfig", File.pathSeparator + home.resolve("missing"));

    assertThrows(ClusterConnection.Unusable.class, ClusterConnection::resolve);
  }

  /** Where no ServiceAccount token is: the test JVM runs outside a pod. */
  private Path noToken() {
    return home.resolve("no-token");
  }

  @Test
  void kubeconfigFromTheEnvironmentIsUsedAndSaid() throws Exception {
    Path file = kubeconfig("config", "https://api.example:6443");

    ClusterConnection connection =
        ClusterConnection.resolve(null, Map.of("KUBECONFIG", file.toString()), noToken());

    assertTrue(connection.found());
    assertEquals("kubeconfig " + file + " (KUBECONFIG)", connection.source());
  }

  @Test
  void kubeconfigFromTheEnvironmentThatDoesNotExistIsAnError() {
    Path missing = home.resolve("missing");

    ClusterConnection.Unusable unusable =
        assertThrows(
            ClusterConnection.Unusable.class,
            () ->
                ClusterConnection.resolve(
                    null, Map.of("KUBECONFIG", missing.toString()), noToken()));

    assertTrue(
        unusable.getMessage().startsWith("the kubeconfig " + missing + " (KUBECONFIG) does not"),
        unusable.getMessage());
  }

  @Test
  void aBlankKubeconfigVariableIsAsUnset() throws Exception {
    ClusterConnection connection =
        ClusterConnection.resolve(null, Map.of("KUBECONFIG", " "), noToken());

    assertFalse(connection.found());
  }

  @Test
  void inAPodTheServiceAccountNeedsBothTheServiceHostAndTheToken() throws Exception {
    Path token = Files.writeString(home.resolve("token"), "not-a-secret");
    Map<String, String> inAPod = Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1");

    assertEquals(
        "the pod's ServiceAccount", ClusterConnection.resolve(null, inAPod, token).source());
    assertFalse(ClusterConnection.resolve(null, inAPod, noToken()).found(), "no token");
    assertFalse(ClusterConnection.resolve(null, Map.of(), token).found(), "no service host");
  }

  @Test
  void kubernetesMasterIsSaidAsTheSource() throws Exception {
    ClusterConnection connection =
        ClusterConnection.resolve(
            null, Map.of("KUBERNETES_MASTER", "https://master.example:6443"), noToken());

    assertTrue(connection.found());
    assertEquals("kubernetes.master (KUBERNETES_MASTER)", connection.source());
  }
}
