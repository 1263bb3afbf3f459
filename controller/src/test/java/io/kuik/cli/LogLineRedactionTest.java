package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.kube.LogRedaction;
import io.kuik.model.Redactor;
import io.kuik.model.RegistryCredential;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every log line passes the process's redactor where it is built: its message, its parameters and
 * its failure lose every form of a credential the process knows, before any of them is cut.
 */
class LogLineRedactionTest {

  private static final RegistryCredential ALICE =
      RegistryCredential.basic("alice", "s3cret of alice");
  private static final String BASIC =
      Base64.getEncoder().encodeToString("alice:s3cret of alice".getBytes(StandardCharsets.UTF_8));

  @AfterEach
  void forget() {
    LogRedaction.use(Redactor.none());
  }

  @Test
  void theMessageItsParametersAndItsFailureLoseEveryFormOfAKnownCredential() {
    LogRedaction.use(Redactor.of(List.of(ALICE)));
    LogRecord record = new LogRecord(Level.WARNING, "the registry answered {0}: {1}");
    record.setParameters(new Object[] {"401", "bad credentials in header Basic " + BASIC});
    record.setThrown(new IllegalStateException("echo s3cret%20of%20alice " + "x".repeat(5_000)));

    LogLine line = LogLine.of(record);

    String everything = line.message() + " " + line.fields();
    assertTrue(line.message().contains(Redactor.MARK), line.message());
    assertFalse(everything.contains(BASIC), everything);
    assertFalse(everything.contains("s3cret"), everything);
    assertFalse(everything.contains(BASIC.substring(0, 8)), everything);
  }

  @Test
  void withoutAnyKnownCredentialALineIsAsItWas() {
    LogRecord record = new LogRecord(Level.INFO, "syncing {0} routing resources");
    record.setParameters(new Object[] {3});

    assertTrue(LogLine.of(record).message().equals("syncing 3 routing resources"));
  }
}
