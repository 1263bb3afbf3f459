package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cucumber.gherkin.GherkinParser;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.cucumber.messages.types.Envelope;
import io.cucumber.messages.types.PickleStep;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every step reads once in Cucumber's report. The report marks a step's arguments from the groups
 * its step definition captured; a regular expression's group that did not take part in the match
 * has no position, and the HTML report then prints the step's text again for it ("… is created in
 * shop is created in shop"). So no regular-expression step definition may leave a group unmatched
 * on any step of the features (Cucumber expressions cannot: their optional text captures nothing).
 */
class StepTextInReportTest {

  @Test
  void everyGroupOfARegularExpressionStepTakesPartInEveryMatch() throws Exception {
    List<Pattern> regexes = regularExpressionSteps();
    List<String> steps = featureSteps();
    List<String> unmatched = new ArrayList<>();
    for (String step : steps) {
      for (Pattern regex : regexes) {
        Matcher matcher = regex.matcher(step);
        if (!matcher.matches()) {
          continue;
        }
        for (int group = 1; group <= matcher.groupCount(); group++) {
          if (matcher.group(group) == null) {
            unmatched.add(
                "\"" + step + "\": group " + group + " of " + regex.pattern() + " is unmatched");
          }
        }
      }
    }

    assertTrue(regexes.size() > 20, "the regular-expression steps were found: " + regexes.size());
    assertTrue(steps.size() > 500, "the features' steps were read: " + steps.size());
    assertEquals(List.of(), unmatched);
  }

  /** The step definitions of this package written as regular expressions (^ or $, as Cucumber). */
  private static List<Pattern> regularExpressionSteps() throws IOException, URISyntaxException {
    Path classes =
        Path.of(
            StepTextInReportTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path folder = classes.resolve("io/kuik/features");
    List<Pattern> regexes = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        String name = file.getFileName().toString();
        Class<?> type;
        try {
          type = Class.forName("io.kuik.features." + name.substring(0, name.length() - 6));
        } catch (ClassNotFoundException e) {
          throw new IllegalStateException(e);
        }
        for (Method method : type.getDeclaredMethods()) {
          for (Annotation annotation : method.getAnnotations()) {
            stepText(annotation)
                .filter(text -> text.startsWith("^") || text.endsWith("$"))
                .ifPresent(text -> regexes.add(Pattern.compile(text)));
          }
        }
      }
    }
    return regexes;
  }

  private static Optional<String> stepText(Annotation annotation) {
    if (annotation instanceof Given given) {
      return Optional.of(given.value());
    }
    if (annotation instanceof When when) {
      return Optional.of(when.value());
    }
    if (annotation instanceof Then then) {
      return Optional.of(then.value());
    }
    return Optional.empty();
  }

  /** The text of every step of every scenario, outlines expanded, as Cucumber runs them. */
  private static List<String> featureSteps() throws IOException {
    GherkinParser parser =
        GherkinParser.builder().includeSource(false).includeGherkinDocument(false).build();
    List<String> steps = new ArrayList<>();
    List<Path> features;
    try (Stream<Path> files = Files.walk(Path.of("."), 2)) {
      features = files.filter(f -> f.toString().endsWith(".feature")).sorted().toList();
    }
    assertTrue(features.size() > 10, "the feature files: " + features);
    for (Path feature : features) {
      try (Stream<Envelope> envelopes = parser.parse(feature)) {
        envelopes
            .flatMap(envelope -> envelope.getPickle().stream())
            .flatMap(pickle -> pickle.getSteps().stream())
            .map(PickleStep::getText)
            .forEach(steps::add);
      }
    }
    return steps;
  }
}
