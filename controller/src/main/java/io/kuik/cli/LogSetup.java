package io.kuik.cli;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends every log event of the process (kuik's own through java.util.logging and System.Logger,
 * fabric8's through slf4j-jdk14) to standard error, one line per event, at the level asked and
 * above, through the {@link LogBridge}.
 */
final class LogSetup {

  // Kept in fields: java.util.logging holds loggers weakly, and a collected one loses its level.
  private static final Logger VERSION_USAGE =
      Logger.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils");
  private static final Logger REFLECTOR =
      Logger.getLogger("io.fabric8.kubernetes.client.informers.impl.cache.Reflector");
  private static final Logger WATCHES =
      Logger.getLogger("io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager");

  private LogSetup() {}

  static void configure(LogFormat format, LogLevel level) {
    Logger root = Logger.getLogger("");
    for (Handler handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    root.addHandler(new LogBridge(format));
    root.setLevel(level.julLevel());
    // fabric8 warns at every start that v1alpha1 is an unstable version: it is kuik's own CRD
    // version, so the warning tells an operator nothing.
    VERSION_USAGE.setLevel(Level.SEVERE);
    // fabric8's informers log every failed list and watch and each retry; InformerHealth tells
    // them as one story per outage instead. Their detail comes back at debug.
    // Likewise its watches' reconnects (an INFO line per error past the tenth); their errors stay.
    boolean debug = level.julLevel().intValue() <= Level.FINE.intValue();
    REFLECTOR.setLevel(debug ? null : Level.OFF);
    WATCHES.setLevel(debug ? null : Level.SEVERE);
  }
}
