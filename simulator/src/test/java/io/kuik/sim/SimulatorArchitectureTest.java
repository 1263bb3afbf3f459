package io.kuik.sim;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
