package dev.lakerewrite.core.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.TestLakes;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16's promise, as a user meets it: a single-file program that depends on lakerewrite-core alone (its classes
 * and its run-time dependencies as Maven resolves them for a user, no test library) compiles with the JDK's
 * compiler and runs {@code Rewriter.rewrite(sql, lake)} on the WikiDBs sample in a JVM of its own.
 */
class UsingOnlyCoreTest {

  private static final String PROGRAM = """
      import dev.lakerewrite.core.*;
      import java.nio.file.Path;

      public class UsingOnlyCore {
        public static void main(String[] args) {
          try (DataLake lake = DataLake.builder().cacheDirectory(Path.of(args[1])).fromWikiDbs(Path.of(args[0]))) {
            RewriteResult r = Rewriter.rewrite(
                "SELECT name, population FROM nz_regions WHERE capital = 'Whangarei'", lake);
            System.out.println("stop=" + r.stopReason());
            System.out.println("sql=" + r.sql().replace('\\n', ' '));
            r.result().ifPresent(t -> System.out.println("row=" + t.get(0, 0) + "|" + t.get(0, 1)));
          }
        }
      }
      """;

  /** Core's compiled classes and its run-time class path, as the build wrote it (no test scope). */
  static List<String> coreRunTimeClassPath() throws IOException {
    Path written = Path.of("target", "lakerewrite-core-runtime.classpath");
    assertThat(written).as("written by maven-dependency-plugin at generate-test-resources").exists();
    List<String> cp = new ArrayList<>();
    cp.add(Path.of("target", "classes").toAbsolutePath().toString());
    cp.addAll(Arrays.asList(Files.readString(written, StandardCharsets.UTF_8).trim().split(File.pathSeparator)));
    return cp;
  }

  @Test
  void aProgramUsingOnlyCoreCompilesAndRewritesAQueryOnTheSampleLake(@TempDir Path tmp) throws Exception {
    List<String> cp = coreRunTimeClassPath();
    assertThat(cp).noneMatch(e -> e.matches(".*(junit|assertj|jqwik|opentest4j|byte-buddy|apiguardian|mockito|"
        + "test-classes|-tests\\.jar).*"));
    String classPath = String.join(File.pathSeparator, cp);

    Path source = tmp.resolve("UsingOnlyCore.java");
    Files.writeString(source, PROGRAM, StandardCharsets.UTF_8);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    java.io.StringWriter diagnostics = new java.io.StringWriter();
    int rc = javac.run(null, null, new java.io.PrintStream(new java.io.OutputStream() {
      @Override
      public void write(int b) {
        diagnostics.write(b);
      }
    }, true), "-classpath", classPath, "-d", tmp.toString(), "--release", "17", source.toString());
    assertThat(rc).as("javac: %s", diagnostics).isZero();

    // Its own cache: the test JVM's shared sample lake holds the DuckDB file under target/lake-cache.
    Path cache = Path.of("target", "using-only-core-cache").toAbsolutePath();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-Dfile.encoding=UTF-8", "-Dstdout.encoding=UTF-8", "-cp", tmp + File.pathSeparator + classPath, "UsingOnlyCore",
        TestLakes.sampleFolder().toAbsolutePath().toString(), cache.toString())
        .redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile()).start();
    // A guard against a hung child only (no timing is asserted): loading and indexing the sample takes about a minute.
    boolean ended = p.waitFor(30, TimeUnit.MINUTES);
    String out = Files.readString(tmp.resolve("out.txt"), StandardCharsets.UTF_8);
    assertThat(ended).as("the program ended: %s", out).isTrue();
    assertThat(p.exitValue()).as("exit code; output:%n%s", out).isZero();
    assertThat(out).contains("stop=OUTPUT_QUERY").contains("row=Northland Region|");
    assertThat(out.lines().filter(l -> l.startsWith("sql=")).findFirst().orElseThrow())
        .contains("region_of_new_zealand").contains("'Whangārei'");
  }
}
