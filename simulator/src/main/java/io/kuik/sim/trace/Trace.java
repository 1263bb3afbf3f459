package io.kuik.sim.trace;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Everything that happened, in order: requests, watch deliveries and notes. Tests and checkers ask
 * the typed records; the CLI prints the timeline; the hash proves that one seed and one script give
 * one history, byte for byte.
 */
public final class Trace {

  private final Instant start;
  private final List<TraceRecord> records = new ArrayList<>();
  private final Map<String, String> aliases = new TreeMap<>();

  public Trace(Instant start) {
    this.start = start;
  }

  /** Show {@code who} as {@code alias} in the actor column (e.g. "syncer"). */
  public void alias(Principal who, String alias) {
    aliases.put(who.user(), alias);
  }

  /** The actor of a user: its alias, a service account's name, or the user name. */
  public Actor actorOf(Principal who) {
    String user = who.user();
    String alias = aliases.get(user);
    if (alias != null) {
      return new Actor(alias);
    }
    return new Actor(
        user.startsWith("system:serviceaccount:")
            ? user.substring(user.lastIndexOf(':') + 1)
            : user);
  }

  public void add(TraceRecord record) {
    records.add(record);
  }

  public List<TraceRecord> records() {
    return Collections.unmodifiableList(records);
  }

  public List<TraceRecord.Request> requests() {
    List<TraceRecord.Request> out = new ArrayList<>();
    for (TraceRecord r : records) {
      if (r instanceof TraceRecord.Request request) {
        out.add(request);
      }
    }
    return out;
  }

  public List<TraceRecord> where(Predicate<TraceRecord> filter) {
    return records.stream().filter(filter).toList();
  }

  public int size() {
    return records.size();
  }

  /** SHA-256 over the canonical line of every record, in order, as lower-case hex. */
  public String hash() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (TraceRecord r : records) {
        sha.update(r.canonical().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) '\n');
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }

  /** One fixed-column line per record, e.g. {@code +00:00:05.000 syncer APPLY secrets ...}. */
  public String timeline() {
    StringBuilder out = new StringBuilder();
    for (TraceRecord r : records) {
      out.append(line(r)).append('\n');
    }
    return out.toString();
  }

  public String line(TraceRecord r) {
    return line(r.at(), r.columns());
  }

  /** A line in the timeline's columns for something told at {@code at}, as the storyline tells. */
  public String line(Instant at, TraceRecord.Columns c) {
    return String.format(
            "+%s  %-26s  %-14s  %s %s",
            elapsed(Duration.between(start, at)), c.actor(), c.action(), c.target(), c.outcome())
        .stripTrailing();
  }

  static String elapsed(Duration d) {
    long millis = d.toMillis();
    return String.format(
        "%02d:%02d:%02d.%03d",
        millis / 3_600_000, (millis / 60_000) % 60, (millis / 1000) % 60, millis % 1000);
  }
}
