package io.kuik.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The requests a {@code docker-registry} saw, read from its log: the distribution registry writes
 * one access-log line per request in the combined log format ({@code 127.0.0.1 - - [date] "HEAD
 * /v2/apps/app-1/manifests/r1 HTTP/1.1" 200 0 "" "Java-http-client/17"}) beside its own lines.
 */
final class AccessLog {

  private final Path file;
  private long offset;
  private String partial = "";

  AccessLog(Path file) {
    this.file = file;
  }

  /** Manifest HEADs in {@code text}, counting access-log lines only. */
  static long manifestHeads(String text) {
    long heads = 0;
    for (String line : text.split("\n")) {
      int request = line.indexOf("] \"HEAD /v2/");
      if (request >= 0 && line.indexOf("/manifests/", request) > 0) {
        heads++;
      }
    }
    return heads;
  }

  /** Manifest HEADs logged since the last call (whole lines only; the first call counts all). */
  long headsSinceLastCall() {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size <= offset) {
        return 0;
      }
      ByteBuffer bytes = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE, size - offset));
      while (bytes.hasRemaining() && channel.read(bytes, offset + bytes.position()) > 0) {
        // reads until the buffer is full
      }
      offset += bytes.position();
      String text =
          partial + new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
      int lastLine = text.lastIndexOf('\n');
      partial = text.substring(lastLine + 1);
      return manifestHeads(text.substring(0, lastLine + 1));
    } catch (IOException unreadable) {
      throw new UncheckedIOException(unreadable);
    }
  }
}
