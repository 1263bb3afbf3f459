package io.kuik.sim.world;

import io.kuik.sim.client.Informer;

/**
 * A world class that reaches up to the client layer, as the kubelet once did: the layer rule of
 * {@code ArchitectureTest} must refuse it. Test code, never on the production classpath.
 */
public final class BackwardWorldClass {

  private BackwardWorldClass() {}

  static boolean synced(Informer informer) {
    return informer.hasSynced();
  }
}
