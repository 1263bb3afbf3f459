package io.kuik.webhook;

import java.util.Objects;

/**
 * The pod an admission is about, as its log lines name it: a pod of a ReplicaSet arrives with only
 * a {@code generateName}, shown as {@code web-7d9f8-*}. A log parameter of this type gives the JSON
 * log line its {@code namespace} and {@code pod} fields.
 */
public record AdmittedPod(String namespace, String name) {

  public AdmittedPod {
    Objects.requireNonNull(name, "name");
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
