package io.kuik.features;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The steps are thin glue over the simulator's DSL: they never reach the cluster below it, its API
 * server, its informers or its fault modules, so that what a step does is a verb a reader finds in
 * the DSL's facets. (The classes are named, not referenced, so that this test does not break its
 * own rule.)
 */
class StepsUseOnlyTheDslTest {

  private final JavaClasses steps = new ClassFileImporter().importPackages("io.kuik.features");

  @Test
  void stepsCallOnlyTheDsl() {
    noClasses()
        .that()
        .resideInAPackage("io.kuik.features..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.kuik.sim.Cluster")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.kuik.sim.world.ApiServer")
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage("io.kuik.sim.client..", "io.kuik.sim.faults..")
        .orShould()
        .callMethod("io.kuik.sim.dsl.KuikWorld", "cluster")
        .check(steps);
  }
}
