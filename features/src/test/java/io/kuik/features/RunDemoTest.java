package io.kuik.features;

import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The README's demo: runs the scenarios of {@code features/demo/} alone and prints their timelines
 * (the {@code demo} Maven profile selects this suite and sets {@code kuik.timeline}). The ordinary
 * build runs the same scenarios as part of {@link RunFeaturesTest}.
 */
@Suite
@IncludeEngines("cucumber")
@SelectPackages("features.demo")
public class RunDemoTest {}
