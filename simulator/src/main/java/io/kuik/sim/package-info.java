/** A deterministic fake cluster on a virtual clock that runs the production classes. */
package io.kuik.sim;
