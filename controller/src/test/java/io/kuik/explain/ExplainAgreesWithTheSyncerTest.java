package io.kuik.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kuik.kube.syncer.Records;
import io.kuik.model.Auth;
import io.kuik.model.DockerConfig;
import io.kuik.model.DockerConfigSecret;
import io.kuik.model.Entry;
import io.kuik.model.EntryForm;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import io.kuik.model.SecretNames;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import io.kuik.syncer.Answer;
import io.kuik.syncer.Effect;
import io.kuik.syncer.Input;
import io.kuik.syncer.SecretSyncer;
import io.kuik.syncer.SyncerSettings;
import io.kuik.syncer.Targeting;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code kuik explain} says what the syncer writes now: for the same cluster, the Secrets it shows
 * for a namespace are the ones a started syncer writes there, whatever the namespace's labels, the
 * targeting, and pods the syncer's informer does not see (without the webhook's label).
 */
class ExplainAgreesWithTheSyncerTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final String NAMESPACE = "team-a";

  @ParameterizedTest(name = "labels {0}, serving by default: {1}")
  @CsvSource({
    "tier=prod, true",
    "tier=dev, true",
    "tier=prod, false",
    "tier=prod;kuik.enix.io/pull-secrets-instance=kuik-system, false",
    "tier=prod;kuik.enix.io/pull-secrets-override=false, true",
  })
  void explainShowsWhatTheSyncerWrites(String labels, boolean byDefault) {
    SyncerSettings settings =
        SyncerSettings.defaults("kuik-system")
            .withTargeting(new Targeting("kuik-system", byDefault))
            .withResyncPeriod(java.time.Duration.ZERO);
    Map<String, String> namespaceLabels = new TreeMap<>();
    for (String label : labels.split(";")) {
      String[] kv = label.split("=", 2);
      namespaceLabels.put(kv[0], kv[1]);
    }
    List<Validated> resources =
        List.of(
            resource("always", RewritePolicy.ALWAYS, "quay.io/acme/a"),
            resource("on-failure", RewritePolicy.ON_FAILURE, "quay.io/acme/b"),
            resource("unused", RewritePolicy.ON_FAILURE, "quay.io/acme/c"));
    Map<String, Secret> sources = Map.of("acme-pull", source());
    List<Pod> pods =
        List.of(
            pod("web", true, "on-failure", "quay.io/acme/b:1"),
            pod("stray", false, "unused", "quay.io/acme/c:1")); // no label: the informer skips it

    Map<String, DockerConfig> syncer = written(settings, namespaceLabels, resources, pods, sources);
    SyncerNow.Result explained =
        SyncerNow.run(
            settings, NAMESPACE, namespaceLabels, resources, pods, sources, Instant.EPOCH);

    assertEquals(syncer, explained.secrets());
    assertFalse(
        explained.secrets().containsKey(SecretNames.injected("ImageAlternative", "unused")),
        "a pod the informer does not see needs nothing");
  }

  /** What a started syncer writes in the namespace, every apply taken. */
  private static Map<String, DockerConfig> written(
      SyncerSettings settings,
      Map<String, String> labels,
      List<Validated> resources,
      List<Pod> pods,
      Map<String, Secret> sources) {
    List<RewrittenPod> seen =
        pods.stream()
            .filter(
                p -> p.getMetadata().getLabels().containsKey(RewriteAnnotations.REWRITTEN_LABEL))
            .map(Records::pod)
            .toList();
    ObservedNamespace namespace = new ObservedNamespace(NAMESPACE, labels, false);
    InformerView view = new SyncerNow.View(namespace, resources, seen, sources);
    Map<String, DockerConfig> stored = new TreeMap<>();
    SecretSyncer core = new SecretSyncer(settings, view);
    List<Input> inputs = new ArrayList<>(List.of(new Input.Started()));
    Instant[] now = {T0};
    Effect.Executor executor =
        new Effect.Executor() {
          @Override
          public void apply(Effect.ApplySecret apply) {
            try {
              stored.put(
                  apply.secret().getMetadata().getName(),
                  DockerConfigSecret.read(apply.secret(), "applied"));
            } catch (io.kuik.model.InvalidDockerConfigException e) {
              throw new AssertionError(e);
            }
            inputs.add(new Input.ApplyAnswered(apply, Answer.APPLIED));
          }

          @Override
          public void write(Effect.WriteStatus write) {
            inputs.add(new Input.StatusAnswered(write, Answer.APPLIED));
          }

          @Override
          public void record(Effect.RecordEvent event) {}

          @Override
          public void release(Effect.ReleaseGate release) {} // no gated pod here

          @Override
          public void tryCredential(Effect.TryCredential trial) {
            inputs.add(new Input.TrialAnswered(trial, io.kuik.model.TrialVerdict.accepted("200")));
          }

          @Override
          public void mint(Effect.MintCredential mint) {} // no provider entry here

          @Override
          public void store(Effect.StoreProviderCredential store) {}

          @Override
          public void wakeAt(Effect.WakeAt wake) {
            if (wake.timer().at().isAfter(now[0])) {
              now[0] = wake.timer().at();
            }
            inputs.add(new Input.TimerFired(wake.timer()));
          }
        };
    for (int i = 0; i < inputs.size() && i < 1000; i++) {
      core.handle(inputs.get(i), now[0]).forEach(effect -> effect.carryOut(executor));
    }
    return stored;
  }

  private static Validated resource(String name, RewritePolicy policy, String repository) {
    return new Validated.Valid(
        new RoutingResource(
            new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, name),
            "uid-" + name,
            null,
            new LabelSelectorBuilder().addToMatchLabels("tier", "prod").build(),
            policy,
            List.of(new Entry(0, EntryForm.REPOSITORY, repository, Auth.secretRef("acme-pull")))));
  }

  private static Secret source() {
    String json =
        new DockerConfig(Map.of("quay.io/acme", RegistryCredential.basic("acme", "s3cret")))
            .toJson();
    return new SecretBuilder()
        .withNewMetadata()
        .withName("acme-pull")
        .withNamespace("kuik-system")
        .endMetadata()
        .withType(DockerConfigSecret.TYPE)
        .addToData(
            DockerConfigSecret.KEY,
            Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)))
        .build();
  }

  private static Pod pod(String name, boolean labelled, String rewriter, String image) {
    PodBuilder pod =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(NAMESPACE)
            .addToLabels("app", name)
            .addToAnnotations(
                RewriteAnnotations.REWRITTEN_BY,
                RewriteAnnotations.writeMap(Map.of("app", "ImageAlternative/" + rewriter)))
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("app")
            .withImage(image)
            .endContainer()
            .endSpec()
            .withNewStatus()
            .withPhase("Running")
            .endStatus();
    if (labelled) {
      pod.editMetadata()
          .addToLabels(RewriteAnnotations.REWRITTEN_LABEL, RewriteAnnotations.REWRITTEN_LABEL_VALUE)
          .endMetadata();
    }
    return pod.build();
  }
}
