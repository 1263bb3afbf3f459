package io.kuik.sim.world.kubelet;

import io.kuik.model.DockerConfig;
import io.kuik.model.InvalidDockerConfigException;
import java.util.Optional;

/**
 * A kubelet keyring that borrows the product's credential choice, the shortcut the simulated
 * kubelet must never take: it exists only so that the simulator's architecture test shows its rule
 * catching such a class.
 */
public final class BorrowedKeyring {

  private BorrowedKeyring() {}

  public static Optional<DockerConfig.CredentialMatch> lookup(String document, String repository)
      throws InvalidDockerConfigException {
    return DockerConfig.parse(document).credentialFor(repository);
  }
}
