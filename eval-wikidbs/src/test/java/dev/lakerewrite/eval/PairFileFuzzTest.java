package dev.lakerewrite.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * Issue 9, bad input for the harness: the dev-set pair file cut off anywhere, or with a stray character written
 * anywhere, never makes the loader throw; a file that no longer parses is reported as broken JSON with its line
 * and column, and the pairs before the damage are kept.
 */
class PairFileFuzzTest {
  static final String DEV = devSet();

  @Property(tries = 300)
  void aTruncatedPairFileIsReportedWithLineAndColumn(@ForAll @DoubleRange(min = 0, max = 0.99) double cut) {
    String truncated = DEV.substring(0, (int) (cut * DEV.length()));
    LoadedPairs loaded = PairLoader.parseOnly().load(truncated, "dev.json");
    assertThat(loaded.isClean()).isFalse();
    assertThat(loaded.problems()).anySatisfy(p -> {
      assertThat(p.severity()).isEqualTo(PairProblem.Severity.ERROR);
      assertThat(p.message()).isNotBlank();
    });
    loaded.problems().stream().filter(p -> p.kind() == PairProblem.Kind.SYNTAX).forEach(p -> {
      assertThat(p.line()).isBetween(1, (int) truncated.lines().count() + 1);
      assertThat(p.column()).isGreaterThanOrEqualTo(1);
      assertThat(loaded.problemReport()).contains("dev.json:" + p.line() + ":");
    });
  }

  @Property(tries = 300)
  void aStrayCharacterNeverMakesTheLoaderThrow(@ForAll @DoubleRange(min = 0, max = 0.99) double at,
      @ForAll @IntRange(min = 0, max = 11) int which) {
    char stray = "{}[],:\"\\x\n0\u0000".charAt(which);
    int i = (int) (at * DEV.length());
    String damaged = DEV.substring(0, i) + stray + DEV.substring(i);
    LoadedPairs loaded = PairLoader.parseOnly().load(damaged, "dev.json");
    assertThat(loaded.pairs().size() + loaded.problems().size()).isPositive();
    loaded.problems().forEach(p -> assertThat(p.message()).isNotBlank());
  }

  static String devSet() {
    try (InputStream in = PairLoader.class.getResourceAsStream(PairLoader.WIKIDBS_SAMPLE_DEV_SET)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
