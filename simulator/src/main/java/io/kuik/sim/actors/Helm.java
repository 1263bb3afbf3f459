package io.kuik.sim.actors;

import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.zip.GZIPOutputStream;
import tools.jackson.databind.node.ObjectNode;

/**
 * Helm 3 keeping its release history in Secrets (the default {@code secret} storage driver), by a
 * user in {@code system:masters}. Each revision is a Secret {@code
 * sh.helm.release.v1.<release>.v<revision>} of type {@code helm.sh/release.v1}, labelled {@code
 * owner=helm}, {@code name=<release>}, {@code status=<status>} and {@code version=<revision>},
 * holding the release record gzipped and base64-encoded under {@code release}.
 *
 * <p>The writes follow Helm's: {@code install} creates revision 1 as {@code pending-install} and
 * updates it to {@code deployed}; {@code upgrade} creates the next revision as {@code
 * pending-upgrade}, updates the previous one to {@code superseded}, then the new one to {@code
 * deployed}. Updates are unconditional PUTs (no resourceVersion), as Helm's driver sends them. No
 * chart resource is applied: these stories are about the Secrets.
 */
public final class Helm {

  public static final Identity IDENTITY = Identity.person("helm", "system:masters");
  public static final String TYPE = "helm.sh/release.v1";

  private final ApiServer api;
  private final Identity identity;

  public Helm(ApiServer api) {
    this(api, IDENTITY);
  }

  public Helm(ApiServer api, Identity identity) {
    this.api = Objects.requireNonNull(api, "api");
    this.identity = Objects.requireNonNull(identity, "identity");
  }

  public static String secretName(String release, int revision) {
    return "sh.helm.release.v1." + release + ".v" + revision;
  }

  /** {@code helm install <release> -n <namespace>}; returns the deployed revision's Secret. */
  public ObjectNode install(String namespace, String release) {
    api.create(identity, secret(namespace, release, 1, "pending-install"), "helm");
    return api.update(identity, secret(namespace, release, 1, "deployed"), "helm");
  }

  /** {@code helm upgrade <release> -n <namespace>}; returns the new revision's Secret. */
  public ObjectNode upgrade(String namespace, String release) {
    int previous = lastRevision(namespace, release);
    if (previous == 0) {
      throw new IllegalStateException(
          "Error: UPGRADE FAILED: \"" + release + "\" has no deployed releases");
    }
    int next = previous + 1;
    api.create(identity, secret(namespace, release, next, "pending-upgrade"), "helm");
    api.update(identity, secret(namespace, release, previous, "superseded"), "helm");
    return api.update(identity, secret(namespace, release, next, "deployed"), "helm");
  }

  /** The highest revision stored, as {@code helm history} finds it (0 when none). */
  public int lastRevision(String namespace, String release) {
    LabelSelector history = LabelSelector.parse("owner=helm,name=" + release);
    List<ObjectNode> revisions =
        api.list(identity, ResourceType.SECRET, namespace, history).items();
    return revisions.stream()
        .mapToInt(s -> Integer.parseInt(Meta.labels(s).getOrDefault("version", "0")))
        .max()
        .orElse(0);
  }

  private static ObjectNode secret(String namespace, String release, int revision, String status) {
    ObjectNode secret = Json.object();
    secret.put("apiVersion", "v1");
    secret.put("kind", "Secret");
    ObjectNode meta = secret.putObject("metadata");
    meta.put("name", secretName(release, revision));
    meta.put("namespace", namespace);
    ObjectNode labels = meta.putObject("labels");
    labels.put("name", release);
    labels.put("owner", "helm");
    labels.put("status", status);
    labels.put("version", Integer.toString(revision));
    secret.put("type", TYPE);
    ObjectNode record = Json.object();
    record.put("name", release);
    record.put("namespace", namespace);
    record.put("version", revision);
    record.putObject("info").put("status", status);
    // Helm stores base64(gzip(json)) as the value's bytes; the Secret's data encodes them again.
    String encoded = Base64.getEncoder().encodeToString(gzip(Json.write(record)));
    secret
        .putObject("data")
        .put(
            "release",
            Base64.getEncoder().encodeToString(encoded.getBytes(StandardCharsets.US_ASCII)));
    return secret;
  }

  private static byte[] gzip(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // Java writes a zero modification time, so the same record gives the same bytes.
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      zip.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
