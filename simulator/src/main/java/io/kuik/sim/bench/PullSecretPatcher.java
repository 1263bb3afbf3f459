package io.kuik.sim.bench;

import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A baseline that runs as titansoft-pte-ltd/imagepullsecret-patcher runs (main.go at bdf0891):
 * {@code main} loops for ever, {@code loop} then {@code time.Sleep(configLoopDuration)}, 10 s by
 * default. One {@code loop}: read the docker config from its file ({@code getDockerConfigJSON}, no
 * request), LIST every namespace, and in each ({@code processSecret}) GET the one Secret {@code
 * image-pull-secret}; CREATE it when missing; when its type or data differ ({@code verifySecret}),
 * DELETE and CREATE it again ({@code configForce}, true by default); then ({@code
 * processServiceAccount}) LIST the namespace's ServiceAccounts and PATCH {@code default} when its
 * {@code imagePullSecrets} lacks the Secret. Every request waits on client-go's default limit
 * ({@link ClientGoThrottle}: it sets no QPS on its {@code rest.Config}). It caches nothing between
 * loops.
 *
 * <p>It distributes one Secret, so the user gives it one docker config holding every registry's
 * credential: here the 20 source Secrets merged, as the file a mounted Secret would hold (the
 * kubelet's delay in refreshing that file is not modelled, to the baseline's advantage). Pods pull
 * with it through the {@code default} ServiceAccount, which the API server copies into a pod only
 * when the pod is created.
 */
final class PullSecretPatcher implements Contender {

  static final Duration LOOP_DURATION = Duration.ofSeconds(10);
  static final String SECRET = "image-pull-secret";
  static final Identity IDENTITY = Identity.person("patcher", "system:masters");

  private final ApiServer api;
  private int incarnation;
  private ClientGoThrottle throttle;

  PullSecretPatcher(KuikWorld world, Workload workload) {
    this.api = world.cluster().api();
    world.objects().createNamespace(Workload.INSTALL_NAMESPACE, Map.of());
    world.cluster().trace().alias(IDENTITY, "patcher");
  }

  @Override
  public Actor actor() {
    return new Actor("patcher");
  }

  @Override
  public void start() {
    int mine = ++incarnation;
    throttle = new ClientGoThrottle(api.loop());
    api.loop().schedule(Duration.ZERO, "patcher loop", () -> loop(mine));
  }

  @Override
  public void restart() {
    start();
  }

  @Override
  public void stop() {
    incarnation++;
    throttle = null;
  }

  @Override
  public boolean serves(ClusterState state, String namespace, int k, boolean rotated) {
    boolean secret =
        state
            .get(ResourceType.SECRET, namespace, SECRET)
            .map(s -> Workload.holds(s, k, rotated))
            .orElse(false);
    return secret
        && state
            .get(ResourceType.SERVICE_ACCOUNT, namespace, "default")
            .map(PullSecretPatcher::references)
            .orElse(false);
  }

  @Override
  public String secretFor(int k) {
    return SECRET;
  }

  private void loop(int mine) {
    if (mine != incarnation) {
      return;
    }
    String config = dockerConfig(api.state());
    throttle.send(
        "patcher lists namespaces",
        () -> {
          if (mine != incarnation) {
            return;
          }
          List<String> namespaces = new ArrayList<>();
          try {
            api.list(IDENTITY, ResourceType.NAMESPACE, null)
                .items()
                .forEach(n -> namespaces.add(Meta.name(n)));
          } catch (ApiException failed) {
            // log.Panic: the container restarts and loops again
          }
          namespace(mine, config, namespaces, 0);
        });
  }

  /** processSecret then processServiceAccount for namespace {@code i}, then the next one. */
  private void namespace(int mine, String config, List<String> namespaces, int i) {
    if (mine != incarnation) {
      return;
    }
    if (i == namespaces.size()) {
      api.loop().schedule(LOOP_DURATION, "patcher loop", () -> loop(mine));
      return;
    }
    String namespace = namespaces.get(i);
    Runnable next = () -> serviceAccount(mine, config, namespaces, i);
    throttle.send(
        "patcher gets the Secret of " + namespace,
        () -> {
          if (mine != incarnation) {
            return;
          }
          Optional<ObjectNode> live;
          try {
            live = api.find(IDENTITY, ResourceType.SECRET, namespace, SECRET);
          } catch (ApiException failed) {
            namespace(mine, config, namespaces, i + 1);
            return;
          }
          if (live.isEmpty()) {
            throttle.send(
                "patcher creates", () -> write(mine, () -> create(namespace, config), next));
          } else if (!config.equals(data(live.get()))) {
            throttle.send(
                "patcher deletes",
                () ->
                    write(
                        mine,
                        () -> api.delete(IDENTITY, ResourceType.SECRET, namespace, SECRET),
                        () ->
                            throttle.send(
                                "patcher creates",
                                () -> write(mine, () -> create(namespace, config), next))));
          } else {
            next.run();
          }
        });
  }

  private void serviceAccount(int mine, String config, List<String> namespaces, int i) {
    if (mine != incarnation) {
      return;
    }
    String namespace = namespaces.get(i);
    Runnable next = () -> namespace(mine, config, namespaces, i + 1);
    throttle.send(
        "patcher lists the ServiceAccounts of " + namespace,
        () -> {
          if (mine != incarnation) {
            return;
          }
          Optional<ObjectNode> account = Optional.empty();
          try {
            for (ObjectNode sa :
                api.list(IDENTITY, ResourceType.SERVICE_ACCOUNT, namespace).items()) {
              if (Meta.name(sa).equals("default")) {
                account = Optional.of(sa);
              }
            }
          } catch (ApiException failed) {
            next.run();
            return;
          }
          if (account.isPresent() && !references(account.get())) {
            ObjectNode patch = Json.object();
            var refs = patch.putArray("imagePullSecrets");
            account.get().path("imagePullSecrets").forEach(r -> refs.add(r.deepCopy()));
            refs.addObject().put("name", SECRET);
            throttle.send(
                "patcher patches the default ServiceAccount",
                () ->
                    write(
                        mine,
                        () ->
                            api.mergePatch(
                                IDENTITY,
                                ResourceType.SERVICE_ACCOUNT,
                                namespace,
                                "default",
                                patch,
                                "imagepullsecret-patcher"),
                        next));
          } else {
            next.run();
          }
        });
  }

  /** One write; a refusal is logged and the loop goes on, as processSecret's errors do. */
  private void write(int mine, Runnable request, Runnable then) {
    if (mine != incarnation) {
      return;
    }
    try {
      request.run();
    } catch (ApiException failed) {
      // logged; the next namespace, then the next loop, tries again
    }
    then.run();
  }

  private void create(String namespace, String config) {
    ObjectNode secret = Json.object();
    secret.put("apiVersion", "v1");
    secret.put("kind", "Secret");
    ObjectNode meta = secret.putObject("metadata");
    meta.put("name", SECRET);
    meta.put("namespace", namespace);
    secret.put("type", "kubernetes.io/dockerconfigjson");
    secret
        .putObject("data")
        .put(
            ".dockerconfigjson",
            Base64.getEncoder().encodeToString(config.getBytes(StandardCharsets.UTF_8)));
    api.create(IDENTITY, secret);
  }

  private static String data(ObjectNode secret) {
    JsonNode data = secret.path("data").path(".dockerconfigjson");
    if (!data.isString() || !"kubernetes.io/dockerconfigjson".equals(Json.text(secret, "type"))) {
      return null;
    }
    return new String(Base64.getDecoder().decode(data.asString()), StandardCharsets.UTF_8);
  }

  private static boolean references(JsonNode account) {
    for (JsonNode ref : account.path("imagePullSecrets")) {
      if (SECRET.equals(ref.path("name").asString(""))) {
        return true;
      }
    }
    return false;
  }

  /** The mounted docker config: every source Secret's auths in one document. */
  static String dockerConfig(ClusterState state) {
    ObjectNode document = Json.object();
    ObjectNode auths = document.putObject("auths");
    for (int k = 0; k < Workload.ALWAYS + Workload.ON_FAILURE; k++) {
      state
          .get(ResourceType.SECRET, Workload.INSTALL_NAMESPACE, Workload.sourceSecret(k))
          .map(PullSecretPatcher::data)
          .map(Json::parse)
          .ifPresent(
              config ->
                  config
                      .path("auths")
                      .properties()
                      .forEach(e -> auths.set(e.getKey(), e.getValue())));
    }
    return Json.write(document);
  }
}
