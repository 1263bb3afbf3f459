/**
 * Reads the repository's Helm chart for the simulator: finds {@code chart/}, renders the included
 * files for a release and parses them into objects the fake API server stores.
 */
package io.kuik.sim.chart;
