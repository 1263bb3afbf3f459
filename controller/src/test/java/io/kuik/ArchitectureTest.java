package io.kuik;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.fabric8.kubernetes.client.CustomResource;
import org.junit.jupiter.api.Test;

/**
 * The dependency direction of docs/architecture.md#module-layout: the sans-IO core (model, routing,
 * syncer, ports) never touches fabric8's client, threads or the wall clock; only the edges (kube,
 * webhook, cli) do.
 */
class ArchitectureTest {

  static final String[] CORE = {
    "io.kuik.model..", "io.kuik.routing..", "io.kuik.syncer..", "io.kuik.ports.."
  };

  private final JavaClasses production =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.kuik");

  /**
   * The one class of fabric8's client package the core may use: {@code CustomResource} is the base
   * class of fabric8's typed custom resources (our ImageAlternative and ImageMirror), a model class
   * that happens to live in the client-api jar. Anything else there (clients, informers, utils)
   * stays at the edges.
   */
  private static final DescribedPredicate<JavaClass> FABRIC8_CLIENT_BUT_CUSTOM_RESOURCE =
      resideInAPackage("io.fabric8.kubernetes.client..")
          .and(not(equivalentTo(CustomResource.class)))
          .as("are fabric8 client classes other than CustomResource");

  @Test
  void coreNeverImportsTheFabric8Client() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .should()
        .dependOnClassesThat(FABRIC8_CLIENT_BUT_CUSTOM_RESOURCE)
        .allowEmptyShould(true)
        .check(production);
  }

  @Test
  void coreNeverDependsOnTheEdges() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.kuik.kube..", "io.kuik.webhook..", "io.kuik.cli..")
        .allowEmptyShould(true)
        .check(production);
  }

  @Test
  void coreHasNoThreadsNoSleepsAndNoWallClock() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .should()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(Thread.class, "sleep", long.class)
        .orShould()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .dependOnClassesThat()
        .areAssignableTo(Thread.class)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage("java.util.concurrent..")
        .allowEmptyShould(true)
        .check(production);
  }

  @Test
  void controllerNeverDependsOnTheSimulator() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.kuik.sim..")
        .allowEmptyShould(true)
        .check(production);
  }
}
