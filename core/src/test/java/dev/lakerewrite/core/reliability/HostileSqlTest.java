package dev.lakerewrite.core.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.TestLakes;
import dev.lakerewrite.core.optimize.OptimizeResult;
import dev.lakerewrite.core.optimize.OptimizeVerdict;
import dev.lakerewrite.core.optimize.Optimizer;
import dev.lakerewrite.core.optimize.QueryOptimizer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 9, hostile input: every attack of {@code sql-attacks.tsv} goes through the safe executor (a lake
 * session) and the optimizer's entry point (on the same sandboxed connection), and each is refused or stopped
 * by a limit with an error that says why. Afterwards the lake's DuckDB file and the source CSV folder hash the
 * same as before, no file an attack names exists, and the lake's spill directory is empty. Runs on the sample
 * copied into a DuckDB file; {@link InPlaceHostileSqlTest} runs it again on the sample queried in place.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileSqlTest {
  static final String RESOURCE = "/dev/lakerewrite/core/reliability/sql-attacks.tsv";
  static final QueryLimits LIMITS = new QueryLimits(Duration.ofMillis(600), 1_000);
  /** Outcomes seen, by class, for the summary printed at the end (the report quotes it). */
  /**
   * Parsing and binding happen before the time limit starts, and a loaded machine slows them; the bound only
   * catches an attack the limits failed to stop (those run for minutes or forever), not a slow machine.
   */
  static final long PLANNING_ALLOWANCE_MS = 60_000;
  static final Map<String, Integer> OUTCOMES = new ConcurrentHashMap<>();

  private DataLake lake;
  private LakeSession session;
  private String lakeFileBefore;
  private String sourceBefore;
  private Path spill;
  private QueryOptimizer optimizer;

  /** The lake under attack (shared by the test JVM, never closed). */
  DataLake lake() {
    return TestLakes.sample();
  }

  @BeforeAll
  void open() {
    lake = lake();
    session = lake.openSession();
    lakeFileBefore = Fingerprints.sha256(lake.databaseFile());
    sourceBefore = Fingerprints.sha256Tree(lake.source());
    spill = Fingerprints.tempDirectory(lake);
    optimizer = Optimizer.builder().furtherInstances(false).queryTimeout(LIMITS.timeout()).warmups(0).timedRuns(1)
        .confirmWinner(false).build();
  }

  @AfterAll
  void theLakeIsUnchanged() {
    session.close();
    assertThat(Fingerprints.sha256(lake.databaseFile())).as("lake file").isEqualTo(lakeFileBefore);
    assertThat(Fingerprints.sha256Tree(lake.source())).as("source folder").isEqualTo(sourceBefore);
    assertThat(Fingerprints.attackTargets()).as("files attacks tried to create").isEmpty();
    assertThat(Fingerprints.listing(spill)).as("spill files left in " + spill).isEmpty();
    System.out.println("[reliability] hostile SQL outcomes (executor, " + lake.storage() + "): "
        + new TreeMap<>(OUTCOMES));
    OUTCOMES.clear();
  }

  static List<Attacks.Attack> attacks() {
    return Attacks.load(RESOURCE);
  }

  @Test
  void theSuiteIsBigEnough() {
    List<Attacks.Attack> all = attacks();
    assertThat(all).hasSizeGreaterThanOrEqualTo(50);
    assertThat(all.stream().map(Attacks.Attack::category).distinct()).hasSizeGreaterThanOrEqualTo(20);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("attacks")
  void theExecutorRefusesOrStopsIt(Attacks.Attack attack) {
    long t0 = System.nanoTime();
    Execution e = session.execute(attack.text(), LIMITS);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    String outcome = outcome(e);
    if (ms > 1000) {
      System.out.println("[reliability] slow attack " + ms + " ms: " + attack);
    }
    // Parsing and binding happen before the time limit starts (DuckDB cannot cancel a statement being planned);
    // the size cap keeps that part to a few seconds.
    assertThat(ms).as(attack + ": wall time").isLessThan(LIMITS.timeout().toMillis() + PLANNING_ALLOWANCE_MS);
    OUTCOMES.merge(outcome, 1, Integer::sum);
    assertThat(outcome).as(attack + " → " + e).isIn(attack.outcomes());
    e.error().ifPresent(err -> {
      assertThat(err.message()).as("a clear error").hasSizeGreaterThan(15);
      assertThat(err.summary().length()).as("the summary stays one short line").isLessThan(2_000);
    });
    // The session survives the attack.
    assertThat(session.execute("SELECT count(*) FROM capital").table().get(0, 0)).isEqualTo(16L);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("attacks")
  void theOptimizerRefusesIt(Attacks.Attack attack) {
    OptimizeResult r = optimizer.optimize(attack.text(), session.connection());
    assertThat(r.verdict()).as(attack + " → " + r.failure()).isEqualTo(OptimizeVerdict.ORIGINAL_FAILED);
    assertThat(r.failure()).as(attack.toString()).hasValueSatisfying(f -> assertThat(f).hasSizeGreaterThan(15));
    assertThat(r.sql()).isEqualTo(r.originalSql());
  }

  /** The outcome class of an execution, in the attack file's terms. */
  static String outcome(Execution e) {
    if (e.isSuccess()) {
      return e.table().truncated() ? "ROW_LIMIT" : "RAN";
    }
    QueryError err = e.error().orElseThrow();
    if (err.kind() == ErrorKind.REJECTED && err.message().contains("too long")) {
      return "SIZE";
    }
    if (err.kind() == ErrorKind.RUNTIME && err.message().contains("Out of Memory")) {
      return "MEMORY";
    }
    return err.kind().name();
  }
}
