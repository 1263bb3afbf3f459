package io.kuik.ports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kuik.model.ImageReference;
import io.kuik.model.RegistryCredential;
import io.kuik.ports.RegistryProber.Availability;
import io.kuik.ports.RegistryProber.Probe;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The prober's port: a probe says whether it carries a credential and never which; the default for
 * several containers asks for each in turn and answers in their order.
 */
class RegistryProberTest {

  private static final ImageReference APP = app();

  private static ImageReference app() {
    try {
      return ImageReference.parse("quay.io/acme/app:1.0");
    } catch (io.kuik.model.InvalidImageReferenceException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aProbeNamesItsImageAndWhetherItCarriesACredentialNeverWhich() {
    Probe anonymous = Probe.anonymous(APP);
    assertNull(anonymous.credential());
    assertEquals("Probe[quay.io/acme/app:1.0, anonymous]", anonymous.toString());
    Probe credited = new Probe(APP, RegistryCredential.basic("acme", "s3cret"));
    assertEquals("Probe[quay.io/acme/app:1.0, with credential]", credited.toString());
    assertThrows(NullPointerException.class, () -> new Probe(null, null));
  }

  @Test
  void severalContainersAreProbedOneAfterTheOtherAndAnsweredInTheirOrder() {
    List<List<Probe>> asked = new ArrayList<>();
    RegistryProber prober =
        candidates -> {
          asked.add(candidates);
          return List.of(candidates.size() == 1 ? Availability.AVAILABLE : Availability.NOT_FOUND);
        };
    List<List<Probe>> containers =
        List.of(List.of(Probe.anonymous(APP)), List.of(Probe.anonymous(APP), Probe.anonymous(APP)));

    List<List<Availability>> answers = prober.probeAll(containers);

    assertEquals(containers, asked);
    assertEquals(
        List.of(List.of(Availability.AVAILABLE), List.of(Availability.NOT_FOUND)), answers);
  }
}
