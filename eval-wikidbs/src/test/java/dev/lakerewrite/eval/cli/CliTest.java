package dev.lakerewrite.eval.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: exit codes and messages for bad input, and one short run end to end. */
class CliTest {

  @TempDir
  Path dir;

  /** Exit code, stdout and stderr of one invocation. */
  record Run(int code, String out, String err) {}

  static Run cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LakeRewriteCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  static String sample() {
    return System.getProperty("lakerewrite.sample");
  }

  /** The module's target/lake-cache, shared with the other tests (found from target/test-classes). */
  static String cache() {
    try {
      return Path.of(CliTest.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getParent()
          .resolve("lake-cache").toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aMissingLakeIsBadInputWithTheReason() {
    Run r = cli("eval", "--lake", dir.resolve("nowhere").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("lakerewrite eval: no lake at", "nowhere");
  }

  @Test
  void anUnknownMethodOrAblationIsBadInputWithASuggestion() {
    Run method = cli("eval", "--method", "iterativ");
    assertThat(method.code()).isEqualTo(2);
    assertThat(method.err()).contains("unknown method 'iterativ'", "did you mean 'iterative'?");
    Run ablation = cli("eval", "--ablation", "no-build-ctx");
    assertThat(ablation.code()).isEqualTo(2);
    assertThat(ablation.err()).contains("unknown ablation 'no-build-ctx'", "did you mean 'no-build-cte'?");
    Run tag = cli("eval", "--tag", "Noisy");
    assertThat(tag.code()).isEqualTo(2);
    assertThat(tag.err()).contains("unknown difficulty tag 'Noisy'");
  }

  @Test
  void badNumbersAndUnknownOptionsAreBadInput() {
    assertThat(cli("eval", "--limit", "0").err()).contains("--limit must be at least 1");
    assertThat(cli("eval", "--limit", "0").code()).isEqualTo(2);
    assertThat(cli("eval", "--noise-rate", "1.5").code()).isEqualTo(2);
    assertThat(cli("eval", "--jobs", "x").code()).isEqualTo(2);
    Run unknown = cli("eval", "--limt", "3");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).contains("--limt", "Try 'lakerewrite eval --help'");
    Run none = cli();
    assertThat(none.code()).isEqualTo(2);
    assertThat(none.err()).contains("a command is required");
  }

  @Test
  void aBrokenPairFileIsBadInputWithItsProblems() throws IOException {
    Path broken = dir.resolve("broken.json");
    Files.writeString(broken, "[{\"id\": \"a\", \"user_query\": \"SELECT 1\",\n");
    Run r = cli("eval", "--pairs", broken.toString(), "--lake", sample());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("the pair file is broken", "broken.json:", "SYNTAX");
    Run missing = cli("eval", "--pairs", dir.resolve("none.json").toString(), "--lake", sample());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("no pair file at");
    Path empty = dir.resolve("empty.json");
    Files.writeString(empty, "[{\"id\": \"a\"}]");
    Run invalid = cli("eval", "--pairs", empty.toString(), "--lake", sample());
    assertThat(invalid.code()).isEqualTo(2);
    assertThat(invalid.err()).contains("the pair file has no valid pair", "MISSING_FIELD");
  }

  @Test
  void aRunWhereNothingCanRunIsBadInput() {
    Run r = cli("eval", "--method", "retriever-reader", "--model", "offline");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("nothing can run", "needs a chat model");
  }

  @Test
  void anOutputPathThatIsAFileIsBadInput() throws IOException {
    Path file = Files.writeString(dir.resolve("taken"), "x");
    Run r = cli("eval", "--out", file.toString(), "--lake", sample());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("is a file, not a folder");
  }

  @Test
  void helpIsNoError() {
    Run r = cli("eval", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("--lake", "--pairs", "--out", "--method", "--ablation", "--limit", "--seed",
        "--model");
    assertThat(cli("help").out()).contains("eval");
  }

  @Test
  void aShortRunWritesTheReportsAndExitsZero() throws IOException {
    Path out = dir.resolve("run");
    Run r = cli("eval", "--lake", sample(), "--cache", cache(), "--method", "one-step", "--limit", "2",
        "--out", out.toString(), "--no-progress");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("One-step Rewriter", "report:");
    JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    assertThat(summary.get("pairs").asInt()).isEqualTo(2);
    assertThat(summary.get("variant").asText()).isEqualTo("one-step");
    assertThat(summary.get("f1").isNumber()).isTrue();
    assertThat(summary.get("execution_accuracy").isNumber()).isTrue();
    assertThat(summary.get("median_latency_ms").isNumber()).isTrue();
    assertThat(summary.get("by_tag").has("Name Mismatch")).isTrue();
    assertThat(out.resolve("report.md")).exists();
    assertThat(out.resolve("charts/f1-by-method.png")).isNotEmptyFile();
    assertThat(out.resolve("traces/one-step/wdbs-001.jsonl")).isNotEmptyFile();
    assertThat(Files.readAllLines(out.resolve("pairs.jsonl"))).hasSize(2);
  }

  @Test
  void anUnknownPairIdIsBadInputWithASuggestion() {
    Run r = cli("eval", "--lake", sample(), "--cache", cache(), "--id", "wdbs-0O1", "--out",
        dir.resolve("x").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("no pair 'wdbs-0O1'", "did you mean 'wdbs-001'?");
  }
}
