package io.kuik.features;

import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * Runs every {@code .feature} file at the top of the features module (copied to the test classpath
 * under {@code features/} by the build, hence the package {@code features}; {@code demo/} is a
 * subpackage and runs too) on the simulator. Undefined and pending steps fail the run; the HTML
 * report lands in {@code features/target/}.
 */
@Suite
@IncludeEngines("cucumber")
@SelectPackages("features")
public class RunFeaturesTest {}
