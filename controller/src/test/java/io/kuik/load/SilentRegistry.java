package io.kuik.load;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A registry in an outage that drops nothing and answers nothing: it accepts every connection on a
 * loopback port, reads what it is sent and never replies, so each probe waits for its own timeout.
 * Connections are closed when the peer closes them or when this is closed.
 */
final class SilentRegistry implements AutoCloseable {

  private final ServerSocket server;
  private final ConcurrentLinkedQueue<Socket> open = new ConcurrentLinkedQueue<>();
  private final AtomicLong accepted = new AtomicLong();
  private final Thread acceptor;

  SilentRegistry() throws IOException {
    server = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::accept, "silent-registry");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** {@code 127.0.0.1:<port>}, the registry part of its images. */
  String host() {
    return "127.0.0.1:" + server.getLocalPort();
  }

  /** Connections accepted so far. */
  long accepted() {
    return accepted.get();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : open) {
      socket.close();
    }
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        accepted.incrementAndGet();
        open.add(socket);
        Thread drain = new Thread(() -> swallow(socket), "silent-registry-connection");
        drain.setDaemon(true);
        drain.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  /** Reads until the peer gives up, so its requests never block on a full buffer. */
  private void swallow(Socket socket) {
    byte[] buffer = new byte[4096];
    try (socket;
        InputStream in = socket.getInputStream()) {
      while (in.read(buffer) >= 0) {
        // nothing: a registry that never answers
      }
    } catch (IOException gone) {
      // the peer timed out and closed, or we are closing
    } finally {
      open.remove(socket);
    }
  }
}
