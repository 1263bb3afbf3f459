package io.kuik.features;

import io.cucumber.java.Scenario;
import io.kuik.sim.dsl.KuikWorld;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * For the demo: when the system property {@code kuik.timeline} names a folder, each scenario's
 * storyline is printed and written there with its full timeline.
 */
final class Timelines {

  static final String PROPERTY = "kuik.timeline";

  private Timelines() {}

  static void publish(Scenario scenario, KuikWorld world) {
    String folder = System.getProperty(PROPERTY);
    if (folder == null || folder.isBlank()) {
      return;
    }
    String slug = scenario.getName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    String storyline = world.views().storyline();
    System.out.println();
    System.out.println("=== " + scenario.getName() + " (" + scenario.getStatus() + ")");
    System.out.println(storyline);
    try {
      Path dir = Files.createDirectories(Path.of(folder));
      Path story = dir.resolve(slug + ".txt");
      Files.writeString(story, storyline);
      Files.writeString(dir.resolve(slug + ".full.txt"), world.views().timeline());
      System.out.println(
          "=== written to "
              + story.toAbsolutePath()
              + " (and .full.txt with every request, watch delivery and effect of the syncer's"
              + " core)");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
