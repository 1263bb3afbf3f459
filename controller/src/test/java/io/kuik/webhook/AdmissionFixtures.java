package io.kuik.webhook;

import io.kuik.model.Auth;
import io.kuik.model.Entry;
import io.kuik.model.EntryForm;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import io.kuik.model.ServedNamespaces;
import io.kuik.ports.RegistryProber;
import io.kuik.routing.Router;
import io.kuik.routing.RoutingIndex;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The handler the admission tests run: one Always mirror, a prober that knows its copies. */
final class AdmissionFixtures {

  static final String MIRROR_PATH = "registry.example.com/mirror/";

  static final RoutingResource PROD_MIRROR =
      new RoutingResource(
          new ResourceId(RoutingKind.IMAGE_MIRROR, "prod-mirror"),
          "uid-prod-mirror",
          null,
          null,
          RewritePolicy.ALWAYS,
          List.of(new Entry(0, EntryForm.MIRROR, MIRROR_PATH, Auth.secretRef("mirror-read"))));

  /** Every image under the mirror is there; nothing else answers. */
  static final RegistryProber MIRROR_HAS_EVERYTHING =
      candidates -> {
        List<RegistryProber.Availability> answers = new ArrayList<>();
        for (RegistryProber.Probe probe : candidates) {
          answers.add(
              probe.image().toString().startsWith(MIRROR_PATH)
                  ? RegistryProber.Availability.AVAILABLE
                  : RegistryProber.Availability.UNREACHABLE);
        }
        return answers;
      };

  private AdmissionFixtures() {}

  /** A handler routing with {@link #PROD_MIRROR}, serving every namespace but kube-system. */
  static AdmissionHandler handler(RegistryProber prober) {
    return handler(prober, ServedNamespaces.allBut(ServedNamespaces.KUBE_SYSTEM));
  }

  /** The same, serving only the namespaces {@code served} says. */
  static AdmissionHandler handler(RegistryProber prober, ServedNamespaces served) {
    return handler(prober, served, false);
  }

  /** The same with pull secret first: every pod given a reference is gated. */
  static AdmissionHandler gatingHandler(RegistryProber prober) {
    return handler(prober, ServedNamespaces.allBut(ServedNamespaces.KUBE_SYSTEM), true);
  }

  private static AdmissionHandler handler(
      RegistryProber prober, ServedNamespaces served, boolean gating) {
    RoutingIndex index = RoutingIndex.of(List.of(PROD_MIRROR));
    Map<String, Map<String, String>> namespaces =
        Map.of("team-a", Map.of("kubernetes.io/metadata.name", "team-a"));
    return new AdmissionHandler(
        new Router(prober, name -> Optional.empty()),
        () -> index,
        served,
        name -> Optional.ofNullable(namespaces.get(name)),
        decision -> {},
        () -> gating);
  }

  static byte[] recorded(String file) {
    try (InputStream in = AdmissionFixtures.class.getResourceAsStream("/admission/" + file)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource admission/" + file);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
