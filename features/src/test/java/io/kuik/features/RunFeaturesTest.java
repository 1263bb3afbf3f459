package io.kuik.features;

import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectDirectories;
import org.junit.platform.suite.api.Suite;

/**
 * Runs every {@code .feature} file at the top of the features module on the simulator. Undefined
 * and pending steps fail the run; the HTML report lands in {@code features/target/}.
 */
@Suite
@IncludeEngines("cucumber")
@SelectDirectories(".")
public class RunFeaturesTest {}
