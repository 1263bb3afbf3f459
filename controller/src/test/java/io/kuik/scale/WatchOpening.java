package io.kuik.scale;

import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.function.Consumer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Changes what a watch of fabric8's mock sends when it opens. fabric8's {@code WatchEventsListener}
 * is package-private and takes its opening as a constructor argument, so the one way to give it
 * another is to replace that field: reflection, in the scale harness only, and a clear failure if a
 * new fabric8 version renames it.
 */
final class WatchOpening {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private WatchOpening() {}

  /**
   * The watch opens with an ADDED event for each stored object it matches whose resourceVersion is
   * greater than {@code version}, and nothing for the others.
   */
  static void onlyAfter(WebSocketListener watch, long version, Map<AttributeSet, String> stored) {
    try {
      Class<?> type = watch.getClass();
      Method matches = accessible(type.getMethod("attributeMatches", AttributeSet.class));
      Method send =
          accessible(type.getMethod("sendWebSocketResponse", String.class, Watcher.Action.class));
      Field opening = type.getDeclaredField("onOpenAction");
      opening.setAccessible(true);
      Consumer<Object> changedSince =
          open ->
              stored.entrySet().stream()
                  .filter(e -> (Boolean) call(matches, open, e.getKey()))
                  .filter(e -> resourceVersion(e.getValue()) > version)
                  .forEach(e -> call(send, open, e.getValue(), Watcher.Action.ADDED));
      opening.set(watch, changedSince);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException(
          "cannot change how fabric8's mock opens a watch (" + watch.getClass() + ")", e);
    }
  }

  private static long resourceVersion(String json) {
    String version = JSON.readTree(json).path("metadata").path("resourceVersion").asString("");
    return version.isEmpty() ? 0 : Long.parseLong(version);
  }

  private static Method accessible(Method method) {
    method.setAccessible(true);
    return method;
  }

  private static Object call(Method method, Object target, Object... arguments) {
    try {
      return method.invoke(target, arguments);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(e.getCause());
    }
  }
}
