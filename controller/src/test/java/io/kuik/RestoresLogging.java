package io.kuik;

import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Puts the root logger back as the test configuration left it, after each test and each test class.
 * The CLI and integration tests run {@code kuik syncer} and {@code kuik webhook} in this JVM, and
 * their log setup replaces the root logger's handlers and level for the whole process: without
 * this, every later test would log at INFO in the commands' format.
 *
 * <p>Registered for every test class of this module by the ServiceLoader file {@code
 * META-INF/services/org.junit.jupiter.api.extension.Extension}, with {@code
 * junit.jupiter.extensions.autodetection.enabled} in {@code junit-platform.properties}.
 */
public final class RestoresLogging
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(RestoresLogging.class);

  /** The root logger's level and handlers at one moment. */
  private record RootLogger(Level level, List<Handler> handlers) {

    static RootLogger now() {
      Logger root = Logger.getLogger("");
      return new RootLogger(root.getLevel(), List.of(root.getHandlers()));
    }

    void restore() {
      Logger root = Logger.getLogger("");
      for (Handler handler : root.getHandlers()) {
        if (!handlers.contains(handler)) {
          handler.flush();
          root.removeHandler(handler);
        }
      }
      List<Handler> present = List.of(root.getHandlers());
      handlers.stream().filter(h -> !present.contains(h)).forEach(root::addHandler);
      root.setLevel(level);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    save(context);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    restore(context);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    save(context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    restore(context);
  }

  private static void save(ExtensionContext context) {
    context.getStore(NAMESPACE).put(RootLogger.class, RootLogger.now());
  }

  private static void restore(ExtensionContext context) {
    RootLogger saved = context.getStore(NAMESPACE).get(RootLogger.class, RootLogger.class);
    if (saved != null) {
      saved.restore();
    }
  }
}
