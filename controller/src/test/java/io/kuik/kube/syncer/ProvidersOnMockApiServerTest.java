package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.MockCluster;
import io.kuik.model.DockerConfigSecret;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ProviderSecrets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code kuik syncer}, run from its command line on a mock API server under the chart's
 * RBAC, with a CredentialProviderConfig and the plugins the tests ship as real processes
 * (src/test/resources/plugins): the well-behaved plugin's token lands in the tenant's Secret and in
 * kuik-provider-* of the install namespace, a restart runs it no more, and a crashing plugin and
 * one that answers for another registry are each an Event, a metric and nothing in any log line.
 */
class ProvidersOnMockApiServerTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);
  static final String ECR = "123456789012.dkr.ecr.eu-west-1.amazonaws.com";

  private final MockCluster cluster = MockCluster.underSyncerRbac();
  private final KubernetesClient client = cluster.client();
  private final ClusterFixtures fixtures = new ClusterFixtures(client);
  private final List<String> logged = new ArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          synchronized (logged) {
            logged.add(String.valueOf(record.getMessage()) + " " + record.getThrown());
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private RunningSyncer syncer;

  @AfterEach
  void stop() {
    if (syncer != null) {
      syncer.close();
    }
    Logger.getLogger("").removeHandler(capture);
    cluster.close();
  }

  @Test
  void theSyncerMintsKeepsAndInjectsAndAFailingPluginIsReportedWithoutWhatItPrinted(
      @TempDir Path plugins, @TempDir Path work) throws Exception {
    TestPlugins.into(plugins);
    Path runs = work.resolve("runs");
    Path config = work.resolve("providers.yaml");
    Files.writeString(
        config,
        String.join(
            "\n",
            "apiVersion: kubelet.config.k8s.io/v1",
            "kind: CredentialProviderConfig",
            "providers:",
            provider("well-behaved", "KUIK_TEST_TOKEN", "t0ken-one", "KUIK_TEST_RUNS", runs),
            provider("crashing"),
            provider("elsewhere"),
            ""));
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    alternative("acme", "well-behaved");
    alternative("broken", "crashing");
    alternative("astray", "elsewhere");
    Logger.getLogger("").addHandler(capture);
    String[] flags = {
      "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
      "--leader-elect=false",
      "--debounce=50ms",
      "--log-format=text",
      "--provider-config=" + config,
      "--provider-bin-dir=" + plugins,
      "--provider-timeout=5s"
    };
    syncer = new RunningSyncer(flags);

    assertEquals(
        "t0ken-one",
        await("team-a's Secret holds the minted token")
            .atMost(PATIENCE)
            .until(
                () -> password("team-a", "kuik-inject-imagealternative-acme"), Optional::isPresent)
            .get());
    ProviderCredential kept =
        await("the token kept in the install namespace")
            .atMost(PATIENCE)
            .until(this::kept, Optional::isPresent)
            .get();
    assertEquals("well-behaved", kept.provider());
    assertEquals(ECR, kept.slot().key());
    assertTrue(
        Duration.between(Instant.now(), kept.expiresAt()).compareTo(Duration.ofHours(11)) > 0,
        "valid 12 hours: " + kept);
    Event crash = event("broken");
    assertTrue(crash.getMessage().contains("exited with status 3"), crash.getMessage());
    Event astray = event("astray");
    assertTrue(astray.getMessage().contains("none of which serves " + ECR), astray.getMessage());
    String metrics = syncer.get("/metrics").body();
    assertTrue(
        metrics.contains(
            "kuik_syncer_provider_mints_total{provider=\"crashing\",result=\"exited\"}"),
        metrics);
    assertTrue(
        metrics.contains(
            "kuik_syncer_provider_credential_validity_seconds{provider=\"well-behaved\"} 43200.0"),
        metrics);
    assertTrue(
        metrics.contains(
            "kuik_syncer_provider_credential_expiry_seconds{provider=\"crashing\"} 0.0"),
        metrics);

    syncer.close();
    syncer = new RunningSyncer(flags);
    await("the restarted syncer writes the tenant's Secret")
        .atMost(PATIENCE)
        .until(() -> syncer.get("/readyz").statusCode() == 200);
    Thread.sleep(2000);
    assertEquals(
        List.of("well-behaved get-credentials"),
        Files.readAllLines(runs),
        "a restart uses the kept credential: the plugin ran once");

    synchronized (logged) {
      for (String line : logged) {
        for (String secret : List.of("SECRET-IN-STDERR", "SECRET-IN-STDOUT", "t0ken-one")) {
          assertFalse(line.contains(secret), line);
        }
      }
    }
  }

  private static String provider(String name, Object... env) {
    StringBuilder yaml =
        new StringBuilder()
            .append("- name: ")
            .append(name)
            .append("\n  matchImages: ['*.dkr.ecr.*.amazonaws.com']")
            .append("\n  defaultCacheDuration: 1h")
            .append("\n  apiVersion: credentialprovider.kubelet.k8s.io/v1")
            .append("\n  args: [get-credentials]");
    if (env.length > 0) {
      yaml.append("\n  env:");
      for (int i = 0; i < env.length; i += 2) {
        yaml.append("\n  - {name: ")
            .append(env[i])
            .append(", value: '")
            .append(env[i + 1])
            .append("'}");
      }
    }
    return yaml.toString();
  }

  private void alternative(String name, String provider) {
    String yaml =
        String.join(
            "\n",
            "apiVersion: kuik.enix.io/v1alpha1",
            "kind: ImageAlternative",
            "metadata:",
            "  name: " + name,
            "spec:",
            "  rewritePolicy: Always",
            "  alternatives:",
            "  - repository: " + ECR + "/" + name + "/app",
            "    auth:",
            "      provider: " + provider,
            "      injectPullSecret: true",
            "");
    client
        .resource(
            client
                .getKubernetesSerialization()
                .unmarshal(yaml, io.kuik.model.crd.ImageAlternative.class))
        .create();
  }

  private Optional<String> password(String namespace, String name) {
    Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
    if (secret == null || secret.getData() == null) {
      return Optional.empty();
    }
    try {
      return DockerConfigSecret.read(secret, name).auths().values().stream()
          .findFirst()
          .map(c -> c.password());
    } catch (io.kuik.model.InvalidDockerConfigException e) {
      return Optional.empty();
    }
  }

  private Optional<ProviderCredential> kept() {
    return client.secrets().inNamespace(INSTALL_NAMESPACE).list().getItems().stream()
        .filter(s -> s.getMetadata().getName().startsWith("kuik-provider-well-behaved-"))
        .findFirst()
        .flatMap(ProviderSecrets::read);
  }

  private Event event(String resource) {
    return await(resource + "'s ProviderCredentialFailed")
        .atMost(PATIENCE)
        .until(
            () ->
                client.v1().events().inNamespace("default").list().getItems().stream()
                    .filter(
                        e ->
                            "ProviderCredentialFailed".equals(e.getReason())
                                && resource.equals(e.getInvolvedObject().getName()))
                    .findFirst(),
            Optional::isPresent)
        .get();
  }
}
