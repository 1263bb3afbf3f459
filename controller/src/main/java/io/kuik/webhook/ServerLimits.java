package io.kuik.webhook;

/**
 * The JDK HTTP server's bounds on a slow client, for every server of the process (the webhook's
 * HTTPS port and both health ports): reading a request and writing its answer may take 10 s each
 * ({@code sun.net.httpserver.maxReqTime}, {@code maxRspTime}), after which the connection is
 * closed, so a client that sends its request one byte at a time holds a thread and a connection for
 * 10 s at most. The API server calls the webhook with a 3 s timeout (the chart's
 * webhook.timeoutSeconds), so no honest call comes near it. A JVM flag still wins.
 *
 * <p>The JDK reads these properties once, when the process's first server is created: every server
 * is created after {@link #apply()} (decision 0077).
 */
public final class ServerLimits {

  /** Seconds to read a request, and to write an answer. */
  public static final String SECONDS = "10";

  private ServerLimits() {}

  /** Sets the bounds unless the JVM was given its own; call before creating any server. */
  public static void apply() {
    for (String property :
        new String[] {"sun.net.httpserver.maxReqTime", "sun.net.httpserver.maxRspTime"}) {
      if (System.getProperty(property) == null) {
        System.setProperty(property, SECONDS);
      }
    }
  }
}
