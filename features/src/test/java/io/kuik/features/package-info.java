/** Step definitions for the Gherkin features at the top of this module's folder. */
package io.kuik.features;
