package io.kuik.model;

import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A Secret of type {@code kubernetes.io/dockerconfigjson}: its type and key, and the one reader of
 * the Docker config an entry's {@code secretRef} Secret holds, for the syncer and the webhook's
 * prober alike.
 */
public final class DockerConfigSecret {

  public static final String TYPE = "kubernetes.io/dockerconfigjson";
  public static final String KEY = ".dockerconfigjson";

  private DockerConfigSecret() {}

  /**
   * The Docker config that {@code secret} holds.
   *
   * @param where the Secret as messages name it, e.g. {@code Secret kuik-system/acme-pull}
   * @throws InvalidDockerConfigException when the Secret is of another type, has no {@value #KEY},
   *     or holds something that is not base64 or not a Docker config; the message starts with
   *     {@code where} and never holds a credential
   */
  public static DockerConfig read(Secret secret, String where) throws InvalidDockerConfigException {
    if (!TYPE.equals(secret.getType())) {
      throw new InvalidDockerConfigException(
          where + " is of type " + secret.getType() + ", not " + TYPE);
    }
    String encoded = secret.getData() == null ? null : secret.getData().get(KEY);
    if (encoded == null) {
      throw new InvalidDockerConfigException(where + " has no " + KEY + " key");
    }
    String json;
    try {
      json = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException notBase64) {
      throw new InvalidDockerConfigException(where + " has a " + KEY + " that is not base64");
    }
    try {
      return DockerConfig.parse(json);
    } catch (InvalidDockerConfigException malformed) {
      throw new InvalidDockerConfigException(where + " is malformed: " + malformed.getMessage());
    }
  }
}
