package io.kuik.cli;

import java.util.concurrent.Callable;

/**
 * A subcommand of {@code kuik}: a picocli {@code @Command} class with a public no-argument
 * constructor, listed in {@code META-INF/services/io.kuik.cli.KuikSubcommand}. {@link Main} finds
 * every one on the classpath through {@link java.util.ServiceLoader}, so a module that depends on
 * the controller (the simulator's {@code simulate}, say) adds its command without the controller
 * knowing it.
 *
 * <p>{@link #call()} returns the process's exit code; a bad argument it finds itself is thrown as
 * picocli's {@code ParameterException}, which exits 2 with the usage.
 */
public interface KuikSubcommand extends Callable<Integer> {}
