package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The CA the chart generates for the webhook stays the same from one render to the next when Helm
 * can read the cluster ({@code helm upgrade}, {@code helm diff}): the chart looks its TLS Secret up
 * and reuses it, so an upgrade neither changes the caBundle under running pods nor shows a diff.
 * Without the Secret (a first install, or a render with no cluster, as Argo CD does) each render
 * generates a new CA; chart/README.md gives the recipes for that case.
 */
class WebhookCaAcrossRendersTest {

  @AfterEach
  void emptyTheCluster() {
    LookupCluster.get().clear();
  }

  @Test
  void aReachableClusterHoldingTheSecretGivesTheSameCaCertificateAndKey() {
    RenderedManifests installed = render();
    JsonNode secret = installed.one("Secret", "kuik-webhook-tls");
    LookupCluster.get().store(secret);

    RenderedManifests upgraded = render();

    assertAll(
        () -> assertEquals(secret, upgraded.one("Secret", "kuik-webhook-tls")),
        () -> assertEquals(caBundle(installed), caBundle(upgraded)),
        () -> assertEquals(secret.at("/data/ca.crt").asString(), caBundle(upgraded)));
  }

  @Test
  void withoutTheSecretEachRenderGeneratesANewCa() {
    RenderedManifests first = render();
    RenderedManifests second = render();

    assertAll(
        () -> assertNotEquals(caBundle(first), caBundle(second)),
        () ->
            assertEquals(
                first.one("Secret", "kuik-webhook-tls").at("/data/ca.crt").asString(),
                caBundle(first),
                "the webhook configuration trusts the CA of the Secret rendered beside it"));
  }

  @Test
  void aSecretSomeoneEmptiedIsReplacedByANewCa() {
    ObjectNode emptied = (ObjectNode) render().one("Secret", "kuik-webhook-tls").deepCopy();
    emptied.putObject("data");
    LookupCluster.get().store(emptied);

    RenderedManifests render = render();

    JsonNode secret = render.one("Secret", "kuik-webhook-tls");
    assertAll(
        () -> assertEquals(secret.at("/data/ca.crt").asString(), caBundle(render)),
        () -> assertNotEquals("", caBundle(render)));
  }

  private static RenderedManifests render() {
    return RenderedManifests.parse(Helm.template(ValueSet.DEFAULTS).orFail());
  }

  private static String caBundle(RenderedManifests manifests) {
    return manifests
        .one("MutatingWebhookConfiguration", "kuik-webhook")
        .at("/webhooks/0/clientConfig/caBundle")
        .asString();
  }
}
