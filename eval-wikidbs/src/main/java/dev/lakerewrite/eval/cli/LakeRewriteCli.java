package dev.lakerewrite.eval.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code lakerewrite} command line ({@code bin/lakerewrite}): one top-level command with subcommands:
 * {@code index} (build or refresh a lake's indexes), {@code rewrite} (one query on a lake, explained),
 * {@code optimize} (the performance pipeline on a DuckDB file), {@code verify} (whether one query can replace
 * another), {@code eval} (the evaluation harness) and {@code perturb} (the lake disorganizer: a clean database and
 * its queries into a disorganized lake and pairs).
 *
 * <p>Exit codes: 0 when the command completed (whatever the scores), 2 for input the user can fix (bad options,
 * a missing lake, a broken pair file), 1 for internal failures.
 */
@Command(name = "lakerewrite", subcommands = {IndexCommand.class, RewriteCommand.class, OptimizeCommand.class,
    VerifyCommand.class, EvalCommand.class, PerturbCommand.class, CommandLine.HelpCommand.class},
    description = "Rewrites SQL written against an assumed schema until it runs on a data lake; evaluates it.",
    synopsisSubcommandLabel = "COMMAND")
public final class LakeRewriteCli implements Runnable {

  /** Completed. */
  public static final int OK = 0;
  /** Internal failure. */
  public static final int INTERNAL_ERROR = 1;
  /** Input the user can fix. */
  public static final int BAD_INPUT = 2;

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  /** Without a subcommand: the usage, and bad input. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is required, e.g. 'lakerewrite eval'");
  }

  public static void main(String[] args) {
    configureLogging();
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command line and returns its exit code (never exits the JVM). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    CommandLine cli = new CommandLine(new LakeRewriteCli());
    PrintWriter outWriter = new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true);
    PrintWriter errWriter = new PrintWriter(new java.io.OutputStreamWriter(err, StandardCharsets.UTF_8), true);
    cli.setOut(outWriter);
    cli.setErr(errWriter);
    cli.setParameterExceptionHandler((ex, arguments) -> {
      CommandLine c = ex.getCommandLine();
      c.getErr().println(qualifiedName(c) + ": " + ex.getMessage());
      CommandLine.UnmatchedArgumentException.printSuggestions(ex, c.getErr());
      c.getErr().println("Try '" + qualifiedName(c) + " --help' for the options.");
      c.getErr().flush();
      return BAD_INPUT;
    });
    cli.setExecutionExceptionHandler((ex, c, parsed) -> {
      if (ex instanceof BadInputException) {
        c.getErr().println(qualifiedName(c) + ": " + ex.getMessage());
        c.getErr().flush();
        return BAD_INPUT;
      }
      c.getErr().println(qualifiedName(c) + ": internal error: " + ex);
      ex.printStackTrace(c.getErr());
      c.getErr().flush();
      return INTERNAL_ERROR;
    });
    int code = cli.execute(args);
    outWriter.flush();
    errWriter.flush();
    return code;
  }

  private static String qualifiedName(CommandLine c) {
    return c.getCommandSpec().qualifiedName();
  }

  /**
   * The repository the command runs from ({@code -Dlakerewrite.home}, set by {@code bin/lakerewrite}); defaults
   * are relative to it. Without it, the working directory.
   */
  static Path home() {
    String home = System.getProperty("lakerewrite.home");
    return Path.of(home == null || home.isBlank() ? "" : home).toAbsolutePath().normalize();
  }

  /** Warnings only, on stderr, unless configured otherwise (-Dorg.slf4j.simpleLogger.*). */
  static void configureLogging() {
    setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
    // DJL warns about CUDA on every machine without a GPU; the embedder runs on the CPU by design.
    setIfAbsent("org.slf4j.simpleLogger.log.ai.djl", "error");
    setIfAbsent("java.awt.headless", "true");
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
