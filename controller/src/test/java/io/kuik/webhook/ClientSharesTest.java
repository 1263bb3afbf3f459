package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
  void aRefusedRequestTakesNoSlotAndGivesNoneBack() throws Exception {
    ClientShares shares = new ClientShares(2);
    InetAddress pod = InetAddress.getByName("10.1.2.3");

    assertTrue(shares.enter(pod));
    assertTrue(shares.enter(pod));
    assertFalse(shares.enter(pod));
    assertFalse(shares.enter(pod), "still over its share after a refusal");

    assertEquals(2, shares.inProgress(pod));
  }

  @Test
  void leavingGivesBackOneSlotAtATime() throws Exception {
    ClientShares shares = new ClientShares(3);
    InetAddress pod = InetAddress.getByName("10.1.2.3");
    shares.enter(pod);
    shares.enter(pod);
    shares.enter(pod);

    shares.leave(pod);
    assertEquals(2, shares.inProgress(pod));
    shares.leave(pod);
    assertEquals(1, shares.inProgress(pod));
    assertEquals(1, shares.clients());
  }

  @Test
  void aClientWithNothingInProgressIsForgotten() throws Exception {
    ClientShares shares = new ClientShares(2);
    InetAddress pod = InetAddress.getByName("10.1.2.3");
    InetAddress other = InetAddress.getByName("10.1.2.4");

    shares.enter(pod);
    shares.enter(other);
    assertEquals(2, shares.clients());
    shares.leave(pod);

    assertEquals(0, shares.inProgress(pod));
    assertEquals(1, shares.clients(), "only the client with an admission in progress is held");
    shares.leave(pod);
    assertEquals(1, shares.clients(), "leaving again without a slot changes nothing");
  }

  @Test
  void aShareOfOneIsTheLeastAndAServerOfOneThreadHasIt() throws Exception {
    InetAddress pod = InetAddress.getByName("10.1.2.3");
    ClientShares one = ClientShares.ofThreads(1);

    assertEquals(1, one.share());
    assertTrue(one.enter(pod));
    assertFalse(one.enter(pod));
    assertEquals(1, new ClientShares(1).share());
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> new ClientShares(0));
    assertEquals("a client's share is at least 1, got 0", refused.getMessage());
  }
}
