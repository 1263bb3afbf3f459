package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * A notification carries what the core's intake reads: an object before or after the change, never
 * neither (an informer that handed over two nulls would be a bug to stop at, not a change to
 * judge).
 */
class NotificationTest {

  @Test
  void aPodNotificationWithNeitherObjectIsRefused() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class, () -> new Notification.PodNotified(null, null));
    assertEquals("a notification has a before or an after", refused.getMessage());
  }

  @Test
  void aNamespaceNotificationWithNeitherObjectIsRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> new Notification.NamespaceNotified(null, null));
  }

  @Test
  void aSourceNotificationNamesItsSecret() {
    assertThrows(NullPointerException.class, () -> new Notification.SourceNotified(null));
  }
}
