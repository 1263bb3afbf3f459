package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** Each client's share of the admissions in progress. */
class ClientSharesTest {

  @Test
  void aClientHasItsShareAndNoMoreAndAnotherClientHasItsOwn() throws Exception {
    ClientShares shares = ClientShares.ofThreads(128);
    InetAddress pod = InetAddress.getByName("10.1.2.3");
    InetAddress apiServer = InetAddress.getByName("10.0.0.10");

    assertEquals(96, shares.share(), "three quarters of the admission threads");
    for (int i = 0; i < 96; i++) {
      assertTrue(shares.enter(pod));
    }
    assertFalse(shares.enter(pod), "over its share");
    assertTrue(shares.enter(apiServer), "the last quarter is the others'");
    shares.leave(pod);
    assertTrue(shares.enter(pod), "a slot given back is taken again");
  }

  @Test
  void aClientWithNothingInProgressIsForgotten() throws Exception {
    ClientShares shares = new ClientShares(2);
    InetAddress pod = InetAddress.getByName("10.1.2.3");

    shares.enter(pod);
    shares.leave(pod);

    assertEquals(0, shares.inProgress(pod));
  }
}
