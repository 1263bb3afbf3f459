package io.kuik.sim.bench;

import io.kuik.sim.time.SimRandom;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.registry.CloudProvider;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.node.ObjectNode;

/**
 * The workaround people run for short-lived registry tokens, as it is usually written: a CronJob on
 * {@code "0 *&#47;6 * * *"} whose Job runs the cloud's CLI ({@code aws ecr get-login-password}: a
 * new 12-hour token) and {@code kubectl create secret docker-registry ... --dry-run=client -o yaml
 * | kubectl apply -f -} into every namespace that needs it, one after the other. Each Job's pod
 * takes a while to start (scheduling, its image, the CLI: {@link #START} to twice that, drawn from
 * the seed); when the cloud refuses, the pod fails and the Job tries again with Kubernetes' pod
 * back-off (10 s doubling, at most 6 minutes) up to its {@code backoffLimit} of 6, then gives up
 * until the next schedule
 * (https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-backoff-failure-policy). It
 * keeps no state: a restart of its controller changes nothing. Its cloud identity is the one the
 * Job runs with; the token it copies serves every namespace alike.
 */
final class CronRefresh {

  static final Duration SCHEDULE = Duration.ofHours(6);
  static final Duration START = Duration.ofSeconds(20);
  static final int BACKOFF_LIMIT = 6;
  static final Duration BACKOFF_CAP = Duration.ofMinutes(6);
  static final String SECRET = "ecr-pull";
  static final Identity IDENTITY = Identity.person("cron-refresh", "system:masters");

  private static final Pattern PASSWORD = Pattern.compile("\"password\":\"([^\"]*)\"");

  private final ApiServer api;
  private final CloudProvider cloud;
  private final SimRandom random;

  CronRefresh(ApiServer api, CloudProvider cloud, SimRandom random) {
    this.api = api;
    this.cloud = cloud;
    this.random = random;
  }

  /** The CronJob's schedule from now on, for {@code total}: a Job now and every 6 hours. */
  void schedule(Duration total) {
    for (long n = 0; SCHEDULE.multipliedBy(n).compareTo(total) < 0; n++) {
      api.loop().schedule(SCHEDULE.multipliedBy(n), "cron-refresh schedules a Job", () -> job(0));
    }
  }

  /** One pod of the Job, the {@code failures}-th retry: it starts, asks the cloud, copies. */
  private void job(int failures) {
    Duration start = START.plusMillis(random.nextInt((int) START.toMillis()));
    api.loop()
        .schedule(
            start,
            "cron-refresh's pod runs",
            () -> {
              CloudProvider.Run run = cloud.exec("{\"image\":\"" + cloud.registryHost() + "\"}");
              api.loop()
                  .schedule(
                      run.took(),
                      "cron-refresh's CLI answered",
                      () -> {
                        Matcher token = PASSWORD.matcher(run.stdout());
                        if (run.exitStatus() == 0 && token.find()) {
                          namespaces().forEach(ns -> copy(ns, token.group(1)));
                        } else if (failures + 1 < BACKOFF_LIMIT) {
                          Duration backoff = Duration.ofSeconds(10L << failures);
                          api.loop()
                              .schedule(
                                  backoff.compareTo(BACKOFF_CAP) > 0 ? BACKOFF_CAP : backoff,
                                  "cron-refresh's Job retries",
                                  () -> job(failures + 1));
                        }
                      });
            });
  }

  /** {@code kubectl get namespaces -l tier=prod}. */
  private List<String> namespaces() {
    try {
      return api
          .list(IDENTITY, ResourceType.NAMESPACE, null, LabelSelector.parse("tier=prod"))
          .items()
          .stream()
          .map(Meta::name)
          .toList();
    } catch (ApiException failed) {
      return List.of(); // kubectl fails; the Job's pod still exits 0, as the script ignores it
    }
  }

  private void copy(String namespace, String token) {
    String auth =
        Base64.getEncoder().encodeToString(("AWS:" + token).getBytes(StandardCharsets.UTF_8));
    String config =
        "{\"auths\":{\""
            + cloud.registryHost()
            + "\":{\"username\":\"AWS\",\"password\":\""
            + token
            + "\",\"auth\":\""
            + auth
            + "\"}}}";
    ObjectNode secret = Json.object();
    secret.put("apiVersion", "v1");
    secret.put("kind", "Secret");
    secret.putObject("metadata").put("name", SECRET).put("namespace", namespace);
    secret.put("type", "kubernetes.io/dockerconfigjson");
    secret
        .putObject("data")
        .put(
            ".dockerconfigjson",
            Base64.getEncoder().encodeToString(config.getBytes(StandardCharsets.UTF_8)));
    try {
      api.apply(IDENTITY, secret, "kubectl", true);
    } catch (ApiException refused) {
      // kubectl fails this namespace; the script goes on with the next
    }
  }
}
