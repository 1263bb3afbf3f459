package io.kuik.routing;

import io.kuik.model.ImageReference;
import io.kuik.model.RoutingResource;
import java.util.ArrayList;
import java.util.List;

/** The naive coverage: every resource checked for every image. The index's oracle and rival. */
record LinearCoverage(List<RoutingResource> resources) implements Coverage {

  @Override
  public List<RoutingResource> covering(ImageReference image) {
    List<RoutingResource> found = new ArrayList<>();
    for (RoutingResource resource : resources) {
      if (Coverage.covers(resource, image)) {
        found.add(resource);
      }
    }
    return found;
  }
}
