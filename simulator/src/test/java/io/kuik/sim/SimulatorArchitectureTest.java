package io.kuik.sim;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md#the-simulators-contract: the simulator has one event loop on a virtual clock
 * and nothing else.
 */
class SimulatorArchitectureTest {

  private final JavaClasses simulator =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.kuik.sim");

  /**
   * The command line ({@code io.kuik.sim.cli}) is the edge that starts simulations, like a test
   * does; picocli's commands are {@code Callable}s. The world it runs stays on the virtual clock.
   */
  @Test
  void simulatorNeverReadsTheWallClockSleepsOrStartsThreads() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.kuik.sim.cli..")
        .should()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .callMethod(Thread.class, "sleep", long.class)
        .orShould()
        .dependOnClassesThat()
        .areAssignableTo(Thread.class)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage("java.util.concurrent..")
        .check(simulator);
  }

  /**
   * The simulated kubelet judges the syncer's choice of credential, so it must reach that choice on
   * its own: no product class that reads docker configs, holds credentials or matches keys, and
   * nothing of the syncer, the webhook's routing or the ports.
   */
  static final ArchRule KUBELET_KEEPS_ITS_OWN_KEYRING =
      noClasses()
          .that()
          .resideInAPackage("io.kuik.sim.world.kubelet..")
          .should()
          .dependOnClassesThat()
          .haveNameMatching(
              "io\\.kuik\\.model\\.(DockerConfig|RegistryCredential|InvalidDockerConfigException"
                  + "|KeyringKey|HostLabelGlob|Auth)(\\$.*)?")
          .orShould()
          .dependOnClassesThat()
          .resideInAnyPackage("io.kuik.syncer..", "io.kuik.routing..", "io.kuik.ports..")
          .because("the simulated kubelet is an oracle for the syncer's credential choice");

  @Test
  void theKubeletNeverUsesTheProductsCredentialMatching() {
    KUBELET_KEEPS_ITS_OWN_KEYRING.check(simulator);
  }

  @Test
  void theKubeletRuleCatchesAKubeletThatBorrowsTheProductsKeyring() {
    JavaClasses borrowing =
        new ClassFileImporter().importClasses(io.kuik.sim.world.kubelet.BorrowedKeyring.class);

    AssertionError caught =
        assertThrows(AssertionError.class, () -> KUBELET_KEEPS_ITS_OWN_KEYRING.check(borrowing));
    assertTrue(caught.getMessage().contains("io.kuik.model.DockerConfig"), caught.getMessage());
  }

  /**
   * docs/architecture.md#the-simulators-contract: the checkers stand apart from what they judge;
   * they read the trace and the stored objects with parsers of their own, never the product's.
   */
  @Test
  void theCheckersNeverUseTheProductsClasses() {
    noClasses()
        .that()
        .resideInAPackage("io.kuik.sim.check..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.kuik.model..", "io.kuik.syncer..", "io.kuik.routing..", "io.kuik.ports..")
        .because("a checker that calls the product can only agree with it")
        .check(simulator);
  }

  @Test
  void simulatorNeverUsesUnseededRandomness() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.util.Random")
        .orShould()
        .callMethod(Math.class, "random")
        .orShould()
        .callMethod(java.util.UUID.class, "randomUUID")
        .check(simulator);
  }
}
