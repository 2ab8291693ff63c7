package dev.lakerewrite.core.optimize;

import dev.lakerewrite.core.llm.LlmGateway;
import dev.lakerewrite.retrieval.Embedder;
import dev.lakerewrite.sql.DidYouMean;
import dev.langchain4j.model.chat.ChatModel;
import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The performance pipeline: rewrites a working query into an equivalent, faster one on a DuckDB or PostgreSQL
 * database (the engine is detected from the connection), and never returns anything slower or different. The
 * measured plan ({@code EXPLAIN (ANALYZE, FORMAT JSON)} on either engine) decides which recipes are tried: only
 * those that target the operators that dominate it ({@link PlanProfile}). An original that runs past the query
 * timeout counts with the timeout as a lower bound of its time (candidates are then checked on a smaller instance
 * and the speedup is reported as a lower bound, {@link OptimizeResult#speedupIsLowerBound()}). Candidates come from the rule-based proposer (the recipe
 * knowledge base applied where the query's structure shows the pathology, plus CTE materialisation hints), from
 * the demonstration pool, and, when a {@link ChatModel} is configured, from a language model (one-shot or an
 * agentic loop with feedback, following E3-Rewrite's execution hints and demonstrations and QUITE's knowledge
 * base and states). Every candidate is verified the same way — executable, equivalent on the target and on
 * further instances of its schema, timed alternately against the original — and the fastest candidate shown
 * faster (the 97.5 % lower confidence bound of its speedup over back-to-back pairs, timed pair by pair until it
 * decides, clears a {@link Builder#margin(double) margin} of 5 %, on its first timing and again on fresh pairs;
 * at least {@link Builder#minSpeedup(double) minSpeedup} if one is set) is returned; otherwise the original.
 *
 * <pre>{@code
 * OptimizeResult r = Optimizer.optimize(sql, connection);   // r.sql(), r.speedup(), r.verdict(), r.trace()
 * QueryOptimizer o = Optimizer.builder().chatModel(model).queryTimeout(Duration.ofMinutes(5)).build();
 * OptimizeResult r2 = o.optimize(sql, connection);
 * }</pre>
 *
 * <p>As {@code Rewriter} for the data-lake pipeline, this class offers the default ({@link #optimize}: offline,
 * default settings) and the one {@link Builder}, which builds a configured, immutable {@link QueryOptimizer}.
 */
public final class Optimizer {
  /** How the language model is used when one is configured. */
  public enum Mode {
    /** One prompt with the execution hint, Block Map, knowledge and demonstrations; one answer. */
    ONE_SHOT,
    /** Up to {@code maxIterations} rounds; each failure is fed back (wrong rows, regression, negligible gain). */
    AGENTIC
  }

  private Optimizer() {}

  /**
   * Optimises one query on a DuckDB or PostgreSQL connection, offline (rules and hints) with default settings and
   * nothing remembered between calls.
   *
   * @param sql one SELECT/WITH query
   * @param connection the database the query runs on (used from the calling thread only)
   * @return the result; bad SQL or a failing original give {@link OptimizeVerdict#ORIGINAL_FAILED}, never an
   *     exception
   * @throws NullPointerException if an argument is null
   */
  public static OptimizeResult optimize(String sql, Connection connection) {
    return builder().build().optimize(sql, connection);
  }

  /**
   * Optimises a script statement by statement, as {@link #optimize(String, Connection)} does each statement.
   *
   * @return one result per statement, in order (empty for a script without statements)
   */
  public static java.util.List<OptimizeResult> optimizeScript(String script, Connection connection) {
    return builder().build().optimizeScript(script, connection);
  }

  /** A builder for a configured {@link QueryOptimizer}; every setting has a default. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Optimizer settings. Defaults: offline (rules and hints only), agentic mode with 5 iterations and a 1.5x target
   * when a model is set, no minimum speedup beyond being shown faster, 1 warm-up and 5 timed runs, 60 s per query, sample and generated
   * instances on, a fresh in-memory demonstration pool, knowledge base on, winner re-timed before it is returned,
   * 5 minutes for trying candidates.
   */
  public static final class Builder {
    @Nullable LlmGateway gateway;
    @Nullable ChatModel chatModel;
    Mode mode = Mode.AGENTIC;
    int maxIterations = 5;
    double targetSpeedup = 1.5;
    double minSpeedup = 1.0;
    double margin = SpeedupRule.DEFAULT_MARGIN;
    int warmups = 1;
    int timedRuns = 5;
    Duration queryTimeout = Duration.ofSeconds(60);
    boolean rules = true;
    final Set<String> recipes = new LinkedHashSet<>(RuleProposer.RECIPES);
    int maxRuleCandidates = 12;
    boolean furtherInstances = true;
    int sampleRows = 2_000;
    int generatedRows = 40;
    long seed = 42;
    int maxComparedRows = Verifier.DEFAULT_MAX_COMPARED_ROWS;
    DemonstrationPool demonstrations;
    double demonstrationSpeedup = 1.5;
    boolean knowledgeBase = true;
    Embedder embedder;
    boolean confirmWinner = true;
    Duration budget = Duration.ofMinutes(5);

    private Builder() {}

    /**
     * Uses this model for proposals, through a fresh gateway per optimisation (default timeout of 120 s per call,
     * retries, no budget); for budgets and a custom timeout pass a {@link #gateway(LlmGateway)}.
     */
    public Builder chatModel(ChatModel model) {
      this.chatModel = Objects.requireNonNull(model, "model");
      this.gateway = null;
      return this;
    }

    /** Uses this gateway's {@link dev.lakerewrite.core.llm.Role#OPTIMIZER} model, budgets and usage metering. */
    public Builder gateway(LlmGateway gateway) {
      this.gateway = Objects.requireNonNull(gateway, "gateway");
      this.chatModel = null;
      return this;
    }

    public Builder mode(Mode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** LLM rounds in agentic mode, 1 to 50. */
    public Builder maxIterations(int iterations) {
      if (iterations < 1 || iterations > 50) {
        throw new IllegalArgumentException("maxIterations must be between 1 and 50, was " + iterations);
      }
      this.maxIterations = iterations;
      return this;
    }

    /** The agentic loop stops once a verified candidate reaches this speedup (at least 1). */
    public Builder targetSpeedup(double speedup) {
      if (!(speedup >= 1.0) || Double.isInfinite(speedup)) {
        throw new IllegalArgumentException("targetSpeedup must be a finite number >= 1, was " + speedup);
      }
      this.targetSpeedup = speedup;
      return this;
    }

    /**
     * Below this speedup (its point estimate) a candidate shown faster is still NEGLIGIBLE, not a win (default 1:
     * any gain whose lower bound clears the {@link #margin} counts; at least 1).
     */
    public Builder minSpeedup(double speedup) {
      if (!(speedup >= 1.0) || Double.isInfinite(speedup)) {
        throw new IllegalArgumentException("minSpeedup must be a finite number >= 1, was " + speedup);
      }
      this.minSpeedup = speedup;
      return this;
    }

    /**
     * The speedup a candidate's lower confidence bound must clear for it to count as faster (default 1.05, 1 to
     * 10). Candidates are timed against the original pair by pair, each side first in turn, until the one-sided
     * 97.5 % lower bound of the speedup clears this margin (at least {@link #timedRuns} pairs, at most three
     * times as many), and a winner again on fresh pairs; a candidate whose bound does not clear it is not
     * returned. Within the default 5 % a timing moves with the load on the machine alone.
     */
    public Builder margin(double speedup) {
      if (!(speedup >= 1.0) || !(speedup <= 10.0)) {
        throw new IllegalArgumentException("margin must be between 1 and 10, was " + speedup);
      }
      this.margin = speedup;
      return this;
    }

    /** Warm-up runs of each query before timing, 0 to 10. */
    public Builder warmups(int runs) {
      if (runs < 0 || runs > 10) {
        throw new IllegalArgumentException("warmups must be between 0 and 10, was " + runs);
      }
      this.warmups = runs;
      return this;
    }

    /**
     * Timed runs of each query (the trimmed mean drops the fastest and slowest), 1 to 50: the fewest back-to-back
     * pairs a candidate is decided on (at least 3), a third of the most ({@link #margin}).
     */
    public Builder timedRuns(int runs) {
      if (runs < 1 || runs > 50) {
        throw new IllegalArgumentException("timedRuns must be between 1 and 50, was " + runs);
      }
      this.timedRuns = runs;
      return this;
    }

    /** Time limit per query execution (candidates get less: a few times the original's time). */
    public Builder queryTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("queryTimeout must be positive, was " + timeout);
      }
      this.queryTimeout = timeout;
      return this;
    }

    /** Whether the rule-based proposer runs (default true). */
    public Builder rules(boolean enabled) {
      this.rules = enabled;
      return this;
    }

    /**
     * Restricts the rule-based proposer to these recipes (names from the knowledge base:
     * {@code decorrelate-scalar-aggregate}, {@code eager-aggregation}, {@code cte-materialized}, ...).
     */
    public Builder recipes(Set<String> names) {
      Objects.requireNonNull(names, "names");
      for (String n : names) {
        if (!RuleProposer.RECIPES.contains(n)) {
          throw new IllegalArgumentException("unknown recipe '" + n + "'" + DidYouMean.hint(n, RuleProposer.RECIPES, 1) + "; known: "
              + String.join(", ", RuleProposer.RECIPES));
        }
      }
      this.recipes.clear();
      this.recipes.addAll(names);
      return this;
    }

    /** At most this many rule candidates per query, 0 to 100. */
    public Builder maxRuleCandidates(int max) {
      if (max < 0 || max > 100) {
        throw new IllegalArgumentException("maxRuleCandidates must be between 0 and 100, was " + max);
      }
      this.maxRuleCandidates = max;
      return this;
    }

    /** Whether candidates are also checked on a sample and a generated instance (default true). */
    public Builder furtherInstances(boolean enabled) {
      this.furtherInstances = enabled;
      return this;
    }

    /**
     * Rows per table in the sample instance, 10 to 1,000,000 (DuckDB). On PostgreSQL tables above ten times this
     * are seen through a sample of about five times this many rows.
     */
    public Builder sampleRows(int rows) {
      if (rows < 10 || rows > 1_000_000) {
        throw new IllegalArgumentException("sampleRows must be between 10 and 1,000,000, was " + rows);
      }
      this.sampleRows = rows;
      return this;
    }

    /** Rows per table in the generated instance, 1 to 100,000. */
    public Builder generatedRows(int rows) {
      if (rows < 1 || rows > 100_000) {
        throw new IllegalArgumentException("generatedRows must be between 1 and 100,000, was " + rows);
      }
      this.generatedRows = rows;
      return this;
    }

    /** Seed of the sample and the generated instance. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Results larger than this are not compared (the candidate is then not accepted), 1 to 50,000,000. */
    public Builder maxComparedRows(int rows) {
      if (rows < 1 || rows > 50_000_000) {
        throw new IllegalArgumentException("maxComparedRows must be between 1 and 50,000,000, was " + rows);
      }
      this.maxComparedRows = rows;
      return this;
    }

    /** The pool of verified rewrites to retrieve demonstrations from and add to (shared across calls). */
    public Builder demonstrations(DemonstrationPool pool) {
      this.demonstrations = Objects.requireNonNull(pool, "pool");
      return this;
    }

    /** Rewrites at least this much faster are added to the demonstration pool (E3-Rewrite: 1.5). */
    public Builder demonstrationSpeedup(double speedup) {
      if (!(speedup >= 1.0) || Double.isInfinite(speedup)) {
        throw new IllegalArgumentException("demonstrationSpeedup must be a finite number >= 1, was " + speedup);
      }
      this.demonstrationSpeedup = speedup;
      return this;
    }

    /** Whether recipes from the knowledge base are put into LLM prompts (default true). */
    public Builder knowledgeBase(boolean enabled) {
      this.knowledgeBase = enabled;
      return this;
    }

    /**
     * The sentence embedder for the semantic half of demonstration retrieval (e.g. the retrieval module's
     * all-MiniLM-L6-v2); without one, demonstrations are ranked by structure alone.
     */
    public Builder embedder(Embedder embedder) {
      this.embedder = Objects.requireNonNull(embedder, "embedder");
      return this;
    }

    /** Whether the best candidate is timed once more against the original before it is returned (default true). */
    public Builder confirmWinner(boolean enabled) {
      this.confirmWinner = enabled;
      return this;
    }

    /**
     * Wall time for trying candidates, counted once the original has run and its plan is read (default 5 minutes).
     * Once spent no further candidate is tried (the trace says so); the fastest verified one so far is still
     * confirmed and returned.
     */
    public Builder budget(Duration budget) {
      Objects.requireNonNull(budget, "budget");
      if (budget.isNegative() || budget.isZero()) {
        throw new IllegalArgumentException("budget must be positive, was " + budget);
      }
      this.budget = budget;
      return this;
    }

    public QueryOptimizer build() {
      return new QueryOptimizer(this);
    }
  }
}
