package io.kuik.routing;

import io.kuik.ports.RegistryProber;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A prober that answers from a map of image to outcome ({@code NOT_FOUND} for any other image),
 * probes every candidate, and remembers what it was asked. The benchmark's "cached probes".
 */
final class MapProber implements RegistryProber {

  private final Map<String, Availability> answers = new HashMap<>();
  final List<Probe> asked = new ArrayList<>();

  MapProber answer(String image, Availability outcome) {
    answers.put(Fixtures.image(image).toString(), outcome);
    return this;
  }

  MapProber available(String... images) {
    for (String image : images) {
      answer(image, Availability.AVAILABLE);
    }
    return this;
  }

  @Override
  public List<Availability> probe(List<Probe> candidates) {
    List<Availability> outcomes = new ArrayList<>(candidates.size());
    for (Probe probe : candidates) {
      asked.add(probe);
      outcomes.add(answers.getOrDefault(probe.image().toString(), Availability.NOT_FOUND));
    }
    return outcomes;
  }
}
