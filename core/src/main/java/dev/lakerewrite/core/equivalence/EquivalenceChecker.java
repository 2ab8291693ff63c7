package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.SafeExecutor;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.SqlSyntaxException;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jspecify.annotations.Nullable;

/**
 * Decides whether one SQL query can replace another: whether, on every database of a schema (honouring its
 * NOT NULL, primary key, UNIQUE, foreign key and CHECK constraints), the right query returns what the left one
 * returns, as multisets, in the left query's order where it has an outer ORDER BY (ties in any order), and in the
 * same LIMIT/OFFSET window.
 *
 * <pre>{@code
 * try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(ddl).build()) {
 *   EquivalenceResult r = checker.check(left, right);
 *   r.verdict(); r.proved(); r.counterexample(); r.reason(); r.evidence();
 * }
 * }</pre>
 *
 * <p>How (after the verification stages of E3-Rewrite and QUITE, with generated instances in place of an LLM's
 * judgement): a cheap syntactic pass first — equal normal forms ({@link Normalizer}: aliases renamed, commutative
 * parts sorted) prove equivalence; then both queries run on instances generated from the queries' predicates and
 * the schema's constraints ({@link InstanceGenerator}: NULLs, duplicates, empty tables, values at and around
 * every constant, shared pools for compared columns, in the manner of XData and VeriEQL), and, when the checker
 * was built on a database with data, on that database too. The first instance where they differ is shrunk by
 * delta debugging into a {@link Counterexample}. LIMIT without a total order is judged up to ties and reported
 * as nondeterminism, not as a difference.
 *
 * <p>Thread-safe: each {@link #check} uses its own private DuckDB workspace (pooled); when built on a
 * connection, that connection is used from the calling thread only, as JDBC requires. Close the checker to free
 * the pooled workspaces.
 */
public final class EquivalenceChecker implements AutoCloseable {
  private static final int DIFF_ROWS = 5;
  /**
   * How a result's notes begin when the time budget stopped the instances before their count: the only case in
   * which the verdict depends on the machine's speed or load.
   */
  public static final String TIME_BUDGET_NOTE = "the time budget ran out";

  /** Instances the threshold search tries per check at most (on top of the generated ones and the witnesses). */
  static final int THRESHOLD_TRIALS = 48;

  /** Instances the mutation search tries per check at most (after the threshold search, on top of the rest). */
  static final int MUTATION_TRIALS = 40;

  /**
   * The error the data alone causes, whatever order the engine evaluates conditions in: a scalar subquery that
   * returns several rows (DuckDB's and PostgreSQL's message). Conversion errors and division by zero are not
   * counted: whether {@code b <> 0 AND a / b > 1} divides by zero depends on which conjunct runs first, and
   * reordering conjuncts must stay equivalent.
   */
  private static final java.util.regex.Pattern DATA_ERROR = java.util.regex.Pattern.compile(
      "more than one row returned by a subquery", java.util.regex.Pattern.CASE_INSENSITIVE);

  private final Schema schema;
  private final @Nullable Database scriptRows;
  private final Connection database;
  private final boolean useData;
  private final int maxInstances;
  private final Duration timeBudget;
  private final Duration queryTimeout;
  private final long seed;
  private final boolean minimize;
  private final boolean targeted;
  private final boolean witnesses;
  private final int maxComparedRows;
  private final int maxMinimizeTests;
  private final int thresholdTrials;
  private final int mutationTrials;
  private final int branchDistanceTrials;
  private final dev.lakerewrite.core.Engine engine;
  private final ConcurrentLinkedQueue<DuckDbWorkspace> pool = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Connection> scratchPool = new ConcurrentLinkedQueue<>();
  private final Map<QueryFacts.ColumnKey, List<String>> realValues = new ConcurrentHashMap<>();
  private volatile boolean closed;

  private EquivalenceChecker(Builder b, Schema schema, @Nullable Database scriptRows, dev.lakerewrite.core.Engine engine) {
    this.engine = engine;
    this.schema = schema;
    this.scriptRows = scriptRows;
    this.database = b.connection;
    this.useData = b.useData && b.connection != null;
    this.maxInstances = b.maxInstances;
    this.timeBudget = b.timeBudget;
    this.queryTimeout = b.queryTimeout;
    this.seed = b.seed;
    this.minimize = b.minimize;
    this.targeted = b.targeted;
    this.witnesses = b.witnesses;
    this.maxComparedRows = b.maxComparedRows;
    this.maxMinimizeTests = b.maxMinimizeTests;
    this.thresholdTrials = b.targeted ? b.thresholdTrials : 0;
    this.mutationTrials = b.targeted ? b.mutationTrials : 0;
    this.branchDistanceTrials = b.targeted ? b.branchDistanceTrials : 0;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Checks whether {@code right} can replace {@code left}.
   *
   * @return the verdict with its evidence; never null
   * @throws EquivalenceInputException if a query does not parse, is not a single SELECT/WITH query, or does not
   *     bind against the schema (unknown table or column: the engine's message, with its nearest names)
   */
  public EquivalenceResult check(String left, String right) {
    Objects.requireNonNull(left, "left");
    Objects.requireNonNull(right, "right");
    if (closed) {
      throw new IllegalStateException("the checker is closed");
    }
    long start = System.nanoTime();
    if (engine == dev.lakerewrite.core.Engine.POSTGRESQL) {
      Connection scratch = scratchPool.poll();
      try {
        if (scratch == null) {
          scratch = DuckDbWorkspace.scratch();
        }
        Connection duck = scratch;
        EquivalenceResult result = new Check(() -> PostgresWorkspace.create(database, schema), duck, left, right,
            start).run();
        if (!closed) {
          scratchPool.add(scratch);
          scratch = null;
        }
        return result;
      } catch (SQLException e) {
        throw new dev.lakerewrite.core.LakeRewriteException("cannot set up the PostgreSQL workspace for the check "
            + "(temporary tables in a transaction that is rolled back): " + e.getMessage(), e);
      } finally {
        if (scratch != null) {
          try {
            scratch.close();
          } catch (SQLException ignored) {
            // In memory.
          }
        }
      }
    }
    DuckDbWorkspace ws = pool.poll();
    try {
      if (ws == null) {
        ws = DuckDbWorkspace.create(schema);
      }
      DuckDbWorkspace mine = ws;
      EquivalenceResult result = new Check(() -> mine, ws.connection(), left, right, start).run();
      if (!closed) {
        pool.add(ws);
        ws = null;
      }
      return result;
    } catch (SQLException e) {
      throw new dev.lakerewrite.core.LakeRewriteException("cannot set up the DuckDB workspace for the check: "
          + e.getMessage(), e);
    } finally {
      if (ws != null) {
        ws.close();
      }
    }
  }

  /** Makes the workspace of one check (for PostgreSQL: after the database itself was read). */
  private interface WorkspaceFactory {
    Workspace open() throws SQLException;
  }

  @Override
  public void close() {
    closed = true;
    for (DuckDbWorkspace ws; (ws = pool.poll()) != null; ) {
      ws.close();
    }
    for (Connection c; (c = scratchPool.poll()) != null; ) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // In memory.
      }
    }
  }

  /** The tables (and views) the checker knows, as the engine reports their names. */
  public List<String> relations() {
    return schema.relationNames();
  }

  /** One check: the state of comparing one pair. */
  private final class Check {
    private final WorkspaceFactory factory;
    private final Connection duck;
    private @Nullable Workspace ws;
    private final String leftSql;
    private final String rightSql;
    private final long start;
    private final long deadline;
    private final SqlParser parser;
    private final List<InstanceCheck> checks = new ArrayList<>();
    private final Set<String> notes = new LinkedHashSet<>();
    private int instancesTried;
    private long rowsCompared;
    private int compared;
    private boolean windowNondeterministic;
    private @Nullable String nondeterministicDetail;
    private @Nullable String orderNotGuaranteed;
    private @Nullable OutputShape leftShape;
    private OutputShape rightShape;
    private @Nullable String leftFailure;
    private @Nullable String rightFailure;
    private Workspace.Query leftQuery;
    private Workspace.Query rightQuery;
    /** The queries' CTE row counts, one prepared query per query that has CTEs ({@link #signature}). */
    private final List<Workspace.Query> blockCounts = new ArrayList<>();
    /** The tables the queries read (null: all), the only ones loaded. */
    private @Nullable Set<String> read;

    Check(WorkspaceFactory factory, Connection duck, String left, String right, long start) {
      this.factory = factory;
      this.duck = duck;
      this.leftSql = strip(left);
      this.rightSql = strip(right);
      this.start = start;
      this.deadline = start + timeBudget.toNanos();
      this.parser = SqlParser.on(duck);
    }

    private boolean postgres() {
      return engine == dev.lakerewrite.core.Engine.POSTGRESQL;
    }

    EquivalenceResult run() throws SQLException {
      JsonNode leftTree = parse(leftSql, EquivalenceInputException.Part.LEFT);
      JsonNode rightTree = parse(rightSql, EquivalenceInputException.Part.RIGHT);
      leftShape = postgres() ? OutputShape.asWritten(leftSql, leftTree, parser)
          : OutputShape.of(leftSql, leftTree, parser);
      rightShape = postgres() ? OutputShape.asWritten(rightSql, rightTree, parser)
          : OutputShape.of(rightSql, rightTree, parser);
      QueryFacts facts = new QueryFacts(schema, parser);
      if (leftTree != null) {
        facts.add(leftTree);
      }
      if (rightTree != null) {
        facts.add(rightTree);
      }
      List<Schema.Table> tables = schema.closure(facts.tables().isEmpty()
          ? schema.tables().stream().map(Schema.Table::name).toList() : facts.tables());
      // PostgreSQL: the database itself is read before the workspace's temporary tables shadow it.
      Map<QueryFacts.ColumnKey, List<String>> real = useData ? real(facts, tables) : Map.of();
      Trial onDatabase = useData && postgres() ? onDatabase() : null;
      ws = factory.open();
      try {
        return run(leftTree, rightTree, facts, tables, real, onDatabase);
      } finally {
        if (postgres()) {
          ws.close();
        }
      }
    }

    private EquivalenceResult run(JsonNode leftTree, JsonNode rightTree, QueryFacts facts, List<Schema.Table> tables,
        Map<QueryFacts.ColumnKey, List<String>> real, Trial onDatabase) throws SQLException {

      read = readTables(leftTree, rightTree);
      if (ws instanceof DuckDbWorkspace d) {
        d.loadOnly(read);
      }
      // The empty instance first: it also tells whether both queries bind.
      Database empty = new Database("every table empty", tables, Map.of());
      ws.load(empty);
      bind(leftSql, leftTree, true, facts);
      bind(rightSql, rightTree, false, facts);

      // Conjuncts the schema makes TRUE (c IS NOT NULL on a NOT NULL column) are left out of both normal forms.
      String leftForm = leftTree == null || rightTree == null ? null : normalForm(leftTree);
      if (leftForm != null && leftForm.equals(normalForm(rightTree))) {
        return result(EquivalenceResult.Verdict.EQUIVALENT, true, null, null,
            "the two queries have the same normal form (aliases renamed, commutative parts sorted, outer joins "
            + "the WHERE null-rejects made inner)", facts);
      }

      leftQuery = ws.prepare(leftShape.runnable(), maxComparedRows);
      rightQuery = ws.prepare(rightShape.runnable(), maxComparedRows);
      prepareBlockCounts(leftTree);
      prepareBlockCounts(rightTree);
      try {
        return instances(facts, tables, real, onDatabase);
      } finally {
        leftQuery.close();
        rightQuery.close();
        blockCounts.forEach(Workspace.Query::close);
      }
    }

    /**
     * The statement's normal form after the steps that need the schema: outer joins a WHERE conjunct null-rejects
     * made inner ({@link OuterJoins}), then {@code c IS NOT NULL} conjuncts on NOT NULL columns left out ({@link
     * NotNullPredicates}).
     */
    private @Nullable String normalForm(JsonNode tree) {
      return Normalizer.normalForm(NotNullPredicates.withoutRedundant(OuterJoins.simplified(tree, schema), schema));
    }

    /**
     * Generated instances first (their differences shrink to small counterexamples), then the database itself
     * (on PostgreSQL it was read before the workspace was made: {@code onDatabase}).
     */
    private EquivalenceResult instances(QueryFacts facts, List<Schema.Table> tables,
        Map<QueryFacts.ColumnKey, List<String>> real, Trial onDatabase) throws SQLException {
      Domains domains = Domains.build(facts, tables, duck, real);
      // The targeted instances (witnesses among them) are planned only when the first is needed: a difference on
      // the fixed instances before them (every table empty, one row per table, ...) ends the check without them.
      TargetedInstances.Plan[] plan = new TargetedInstances.Plan[1];
      java.util.function.Supplier<TargetedInstances.Plan> planned = () -> {
        if (plan[0] == null) {
          if (!postgres()) {
            // Planning asks the engine (row filters, derived comparisons) on the workspace's connection, which
            // held the empty instance when the plan was made before the instances: it holds it again.
            try {
              ws.load(new Database("every table empty", tables, Map.of()));
            } catch (SQLException e) {
              throw new IllegalStateException("cannot empty the workspace: " + e.getMessage(), e);
            }
          }
          plan[0] = targeted ? TargetedInstances.plan(tables, domains, facts, duck, witnesses)
              : new TargetedInstances.Plan(List.of(), 0);
        }
        return plan[0];
      };
      InstanceGenerator generator = new InstanceGenerator(tables, domains, seed, facts.largestLimit(),
          facts.columnComparisons(), () -> planned.get().instances());
      int generated = 0;
      // Witnesses come on top of the budget: the kinds of instance before them, random ones included, keep theirs.
      int counted = maxInstances + (scriptRows != null ? 1 : 0);
      Set<List<List<List<String>>>> tried = new java.util.HashSet<>();
      int repeated = 0;
      int i = 0;
      int total = counted;
      List<ThresholdSearch.Seed> nonEmpty = new ArrayList<>();
      List<ThresholdSearch.Seed> witnessSeeds = new ArrayList<>();
      List<ResultTable> emptyAnswers = null;
      // The witnesses on which the queries return rows, the first few in the order tried.
      List<ThresholdSearch.Seed> informativeWitnesses = new ArrayList<>();
      ThresholdSearch.Seed ownWitness = null;
      // The first instances holding rows, whatever the queries answer on them: where a comparison is evaluated
      // although no answer shows it yet (a CASE over a scalar subquery's average that no instance put above 5).
      List<ThresholdSearch.Seed> populated = new ArrayList<>();
      for (; System.nanoTime() < deadline; i++) {
        total = counted + (plan[0] != null || i >= counted ? planned.get().onTop() : 0);
        if (i >= total) {
          break;
        }
        Database db = i == 0 && scriptRows != null ? scriptRows : generator.generate(generated++);
        Database loaded = ws.load(db);
        if (!tried.add(loaded.content(read))) {
          // The same rows in every table as an instance already tried: both queries would answer the same again.
          repeated++;
          continue;
        }
        Trial t = trial(loaded);
        if (t != null && t.outcome().kind() == OutputComparison.Kind.DIFFERENT) {
          return difference(loaded, t, facts);
        }
        if (t != null && loaded.rowCount() == 0 && emptyAnswers == null) {
          emptyAnswers = List.of(t.left(), t.right());
        }
        if (t != null && loaded.rowCount() > 0 && populated.size() < BranchDistance.MAX_SEEDS) {
          populated.add(new ThresholdSearch.Seed(loaded, List.of()));
        }
        if (t != null) {
          // A seed is an instance whose answers say something: rows, and not the answers every query gives on
          // an empty database (an aggregate without GROUP BY answers one row of zeros and NULLs there).
          boolean informative = t.left().rowCount() + t.right().rowCount() > 0
              && !List.of(t.left(), t.right()).equals(emptyAnswers);
          boolean witness = loaded.name().contains("a witness of"); // "generated #12 (targeted: a witness of ..."
          boolean asWitness = informative && witness && informativeWitnesses.size() < Replicas.MAX_SIDE_BY_SIDE + 1;
          boolean asOwn = informative && ownWitness == null && loaded.name().contains(Witnesses.OWN);
          boolean asNonEmpty = informative && nonEmpty.size() < ThresholdSearch.MAX_SEEDS;
          boolean asOther = !asNonEmpty && witness && witnessSeeds.size() < ThresholdSearch.MAX_SEEDS;
          if (!(asWitness || asOwn || asNonEmpty || asOther)) {
            continue;
          }
          // Only seeds pay for their CTEs' row counts (the instance is still the one loaded).
          ThresholdSearch.Seed seed = new ThresholdSearch.Seed(loaded, signature(t));
          if (asWitness) {
            informativeWitnesses.add(seed);
          }
          if (asOwn) {
            ownWitness = seed;
          }
          if (asNonEmpty) {
            nonEmpty.add(seed);
          } else if (asOther) {
            witnessSeeds.add(seed);
          }
        }
      }
      // The searches below start from the instances where a query returned rows, then from the first witnesses.
      List<ThresholdSearch.Seed> seeds = new ArrayList<>(nonEmpty);
      seeds.addAll(witnessSeeds);
      ThresholdSearch.Seed informativeWitness = informativeWitnesses.isEmpty() ? null : informativeWitnesses.get(0);
      if (thresholdTrials > 0 && System.nanoTime() < deadline && tables.size() > 0) {
        // Comparisons over aggregates: cells of aggregated columns moved to where a group crosses a threshold.
        Map<String, Set<Integer>> measures = ThresholdSearch.measures(facts.statements(), tables);
        if (!measures.isEmpty()) {
          Trial[] last = new Trial[1];
          ThresholdSearch.Outcome found = ThresholdSearch.search(seeds, measures,
              ThresholdSearch.grouped(facts.statements()), ThresholdSearch.needsPairs(facts.statements()),
              thresholdTrials, probe(last));
          if (found != null) {
            return difference(found.loaded(), last[0], facts);
          }
        }
        // The seeds with the first informative witness first: a row in every branch of a UNION, where the
        // instances' rows meet one or none.
        List<ThresholdSearch.Seed> witnessFirst = new ArrayList<>(seeds);
        if (informativeWitness != null) {
          witnessFirst.remove(informativeWitness);
          witnessFirst.add(0, informativeWitness);
        }
        // A value computed from a row's cells against a bound: a row put exactly on it, and one unit either side.
        List<Boundaries.Comparison> bounds = Boundaries.of(facts.statements(), tables, parser);
        if (!bounds.isEmpty() && System.nanoTime() < deadline) {
          Trial[] last = new Trial[1];
          ThresholdSearch.Outcome found = Boundaries.search(witnessFirst, bounds, this::number, thresholdTrials,
              probe(last));
          if (found != null) {
            return difference(found.loaded(), last[0], facts);
          }
        }
        // A comparison only one query has: an evaluation of it put exactly on its boundary, the engine measuring.
        if (branchDistanceTrials > 0 && facts.statements().size() == 2 && System.nanoTime() < deadline) {
          List<BranchDistance.Site> sites = BranchDistance.sites(facts.statements(),
              MutationSearch.differingExpressions(facts.statements().get(0), facts.statements().get(1)), parser);
          if (!sites.isEmpty()) {
            Trial[] last = new Trial[1];
            List<ThresholdSearch.Seed> starts = new ArrayList<>(witnessFirst);
            starts.addAll(populated);
            if (ThresholdSearch.needsPairs(facts.statements())) {
              // A sample deviation sits on a decimal bound only over groups of four rows, three alike.
              for (ThresholdSearch.Seed s : witnessFirst.subList(0, Math.min(2, witnessFirst.size()))) {
                Database four = ThresholdSearch.fourPerGroup(s.instance(), measures,
                    ThresholdSearch.grouped(facts.statements()));
                if (four != null) {
                  starts.add(0, new ThresholdSearch.Seed(four, List.of()));
                }
              }
            }
            ThresholdSearch.Outcome found = BranchDistance.search(starts, sites, this::distances,
                new BranchDistance.RowMoves(facts.columnComparisons(), MutationSearch.namedColumns(facts.statements()),
                    ThresholdSearch.grouped(facts.statements()), domains), branchDistanceTrials, probe(last));
            if (found != null) {
              return difference(found.loaded(), last[0], facts);
            }
          }
        }
        // A rank compared with a constant: the seeds copied past the threshold, each copy its own ranked group.
        java.util.SortedSet<Integer> ranks = Replicas.rankThresholds(facts.statements());
        if (!ranks.isEmpty() && System.nanoTime() < deadline) {
          Set<QueryFacts.ColumnKey> constrained = new java.util.HashSet<>();
          domains.atoms().forEach(a -> {
            if (a != null) {
              constrained.add(a.column());
            }
          });
          Trial[] last = new Trial[1];
          ThresholdSearch.Outcome found = Replicas.search(witnessFirst, ranks, measures,
              Replicas.variedColumns(facts.statements(), tables, constrained), facts.columnComparisons(),
              thresholdTrials, probe(last));
          if (found != null) {
            return difference(found.loaded(), last[0], facts);
          }
        }
      }
      if (mutationTrials > 0 && informativeWitnesses.size() > 1) {
        // The first witness beside each other one: groups of two disjuncts in one instance (DISTINCT over them).
        Trial[] last = new Trial[1];
        ThresholdSearch.Probe probe = probe(last);
        for (ThresholdSearch.Seed other : informativeWitnesses.subList(1, informativeWitnesses.size())) {
          Database both = System.nanoTime() < deadline ? Replicas.sideBySide(informativeWitness.instance(),
              other.instance(), facts.columnComparisons()) : null;
          ThresholdSearch.Outcome o = both == null ? null : probe.run(both);
          if (o != null && o.different()) {
            return difference(o.loaded(), last[0], facts);
          }
        }
      }
      if (mutationTrials > 0 && System.nanoTime() < deadline && facts.statements().size() == 2) {
        // A predicate one query has and the other lacks: a row that fails only it, one edit from rows that pass.
        Trial[] last = new Trial[1];
        // One edit from the first informative instance, and from the first informative witness: a row per table
        // occurrence, each block's filters met (TPC-DS q88's eight counts, one per time window), where a generic
        // instance's one row per table meets one block's filters at most.
        // And from the first witness only one query has: the rows of a disjunct a mutant changed, the rest as the
        // other query would have them (q88's dropped `hd_dep_count = 0`: one edit from its witness).
        List<ThresholdSearch.Seed> starts = new ArrayList<>(seeds);
        for (ThresholdSearch.Seed s : java.util.Arrays.asList(informativeWitness, ownWitness)) {
          if (s != null && !starts.subList(0, Math.min(starts.size(), MutationSearch.MAX_SEEDS)).contains(s)) {
            starts.remove(s);
            starts.add(Math.min(1, starts.size()), s);
          }
        }
        List<JsonNode> differing = MutationSearch.differingExpressions(facts.statements().get(0),
            facts.statements().get(1));
        Set<String> differingColumns = MutationSearch.namedColumns(differing);
        Map<QueryFacts.ColumnKey, Set<String>> differingValues = MutationSearch.differingValues(differing,
            facts.constants(), domains.atoms(), facts::typeOf);
        ThresholdSearch.Outcome found = MutationSearch.search(starts, domains, facts.columnComparisons(),
            differingColumns, differingValues, MutationSearch.namedColumns(facts.statements()), seed, mutationTrials,
            probe(last));
        // Then the other witnesses on which the queries return rows, the first two edits of the differing columns
        // only (NULL, where the column may hold it, and the constant only one query writes): a witness of the
        // disjunct that holds the changed predicate (the second of two ORs) is one edit from telling them apart.
        List<ThresholdSearch.Seed> others = new ArrayList<>(informativeWitnesses);
        others.removeAll(starts.subList(0, Math.min(starts.size(), MutationSearch.MAX_SEEDS)));
        for (int from = 0; found == null && from < others.size() && System.nanoTime() < deadline;
             from += MutationSearch.MAX_SEEDS) {
          found = MutationSearch.search(others.subList(from, Math.min(others.size(), from + MutationSearch.MAX_SEEDS)),
              domains, facts.columnComparisons(), differingColumns, differingValues, Set.of(), seed,
              2 * MutationSearch.MAX_SEEDS * Math.max(1, differingColumns.size()), probe(last));
        }
        if (found != null) {
          return difference(found.loaded(), last[0], facts);
        }
      }
      if (i < total) {
        // The count bounds the effort; the time budget is a safety net that a normal check never reaches.
        notes.add(TIME_BUDGET_NOTE + " (" + timeBudget.toMillis() + " ms) after " + i + " of " + total
            + " instance(s): the verdict rests on fewer instances than the count allows and depends on the "
            + "machine's speed");
      }
      if (repeated > 0) {
        notes.add(repeated + " generated instance(s) repeated the rows of one already tried and were not run again");
      }
      if (useData && (postgres() || System.nanoTime() < deadline + timeBudget.toNanos())) {
        Trial t = postgres() ? onDatabase : onDatabase();
        if (t != null && t.outcome().kind() == OutputComparison.Kind.DIFFERENT) {
          return databaseDifference(t, facts);
        }
      }
      if (compared == 0) {
        String why = "no instance where both queries ran"
            + (leftFailure != null ? "; the left query fails: " + leftFailure : "")
            + (rightFailure != null ? "; the right query fails: " + rightFailure : "");
        return result(EquivalenceResult.Verdict.UNKNOWN, false, null, why, why, facts);
      }
      if (nondeterministicDetail != null) {
        return result(EquivalenceResult.Verdict.UNKNOWN, false, null, "nondeterministic: " + nondeterministicDetail,
            "the answers differ only in rows chosen among ties at a LIMIT boundary", facts);
      }
      if (orderNotGuaranteed != null) {
        return result(EquivalenceResult.Verdict.UNKNOWN, false, null, orderNotGuaranteed,
            "same rows on every instance, but the right query does not guarantee the left query's order", facts);
      }
      if (!facts.nondeterminism().isEmpty()) {
        notes.add("the queries use " + String.join(", ", facts.nondeterminism())
            + "; they agreed on every instance anyway");
      }
      return result(EquivalenceResult.Verdict.EQUIVALENT, false, null, null, "same results on all " + compared
          + " instance(s) where both ran" + (useData ? " (including the database itself)" : ""), facts);
    }

    /** The number a query of constants returns (null when it fails, returns NULL or no number). */
    private java.math.@Nullable BigDecimal number(String sql) {
      Workspace.Result r = ws.run(sql, limits());
      if (!r.isSuccess() || r.table().rowCount() != 1 || r.table().get(0, 0) == null) {
        return null;
      }
      try {
        double d = Double.parseDouble(String.valueOf(r.table().get(0, 0)));
        return Double.isFinite(d) ? java.math.BigDecimal.valueOf(d) : null;
      } catch (NumberFormatException e) {
        return null;
      }
    }

    /** The numbers a probe query returns on an instance (NULLs left out); null when it fails or the time is up. */
    private @Nullable List<Double> distances(Database instance, String probeSql) throws SQLException {
      if (System.nanoTime() >= deadline) {
        return null;
      }
      ws.load(instance);
      Workspace.Result r = ws.run(probeSql, limits());
      if (!r.isSuccess()) {
        return null;
      }
      List<Double> out = new ArrayList<>();
      for (List<Object> row : r.table().rows()) {
        Object v = row.isEmpty() ? null : row.get(0);
        if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
          out.add(n.doubleValue());
        }
      }
      return out;
    }

    /**
     * Loads a searched instance and runs both queries on it, keeping the last trial in {@code last[0]}; null once
     * the time budget is spent. Rows the engine refused are left out, and so then are rows whose foreign keys
     * pointed at them.
     */
    private ThresholdSearch.Probe probe(Trial[] last) {
      return candidate -> {
        if (System.nanoTime() >= deadline) {
          return null;
        }
        Database loaded = ws.load(candidate);
        if (loaded.rowCount() < candidate.rowCount()) {
          Database honoured = loaded.withForeignKeysHonoured();
          if (honoured.rowCount() < loaded.rowCount()) {
            loaded = ws.load(honoured);
          }
        }
        Trial t = trial(loaded);
        if (t == null) {
          return null;
        }
        last[0] = t;
        return new ThresholdSearch.Outcome(loaded, t.outcome().kind() == OutputComparison.Kind.DIFFERENT,
            signature(t));
      };
    }

    /**
     * What the searches watch for a change as they move cells: the two results' row counts, and the row counts of
     * each query's CTEs on the instance loaded now. A comparison inside a CTE ({@code HAVING sum(x) > 100} in a
     * CTE that an outer aggregate reads through {@code IN}) changes which rows the CTE holds, while the outer
     * query's one row stays one row: without the CTEs' counts the threshold search sees no crossing there.
     */
    private List<Integer> signature(Trial t) {
      List<Integer> out = new ArrayList<>(List.of(t.left().rowCount(), t.right().rowCount()));
      for (Workspace.Query q : blockCounts) {
        Workspace.Result r = q.run(queryTimeout);
        if (!r.isSuccess() || r.table().rowCount() != 1) {
          out.add(-1);
          continue;
        }
        for (Object v : r.table().rows().get(0)) {
          out.add(v instanceof Number n ? n.intValue() : -1);
        }
      }
      return out;
    }

    /** CTEs of one query whose row counts the searches' signature takes at most. */
    private static final int MAX_COUNTED_CTES = 16;

    /**
     * {@code WITH <the query's CTEs> SELECT (SELECT count(*) FROM c1), ...}, prepared, when the query has CTEs and
     * the workspace can run it; none otherwise.
     */
    private void prepareBlockCounts(@Nullable JsonNode tree) {
      if (tree == null) {
        return;
      }
      JsonNode node = tree.path("node");
      List<ObjectNode> ctes = Trees.ctes(node);
      if (ctes.isEmpty() || ctes.size() > MAX_COUNTED_CTES) {
        return;
      }
      List<String> counts = new ArrayList<>();
      for (ObjectNode e : ctes) {
        counts.add("(SELECT count(*) FROM \"" + e.path("key").asText().replace("\"", "\"\"") + "\")");
      }
      try {
        Trees trees = new Trees(parser);
        ObjectNode select = trees.node("SELECT " + String.join(", ", counts));
        select.set("cte_map", node.path("cte_map").deepCopy());
        Workspace.Query q = ws.prepare(trees.renderNode(select), 1);
        if (q.error().isPresent()) {
          q.close();
        } else {
          blockCounts.add(q);
        }
      } catch (RuntimeException e) {
        // A CTE list the parser cannot render back: the searches watch the results' row counts alone.
      }
    }

    /**
     * The schema's tables the two queries name (lower-case), null when that cannot be told (a query without a
     * tree, a view): the workspace loads only these, as no other table's rows can change a result.
     */
    private @Nullable Set<String> readTables(@Nullable JsonNode leftTree, @Nullable JsonNode rightTree) {
      if (leftTree == null || rightTree == null) {
        return null;
      }
      Set<String> out = new java.util.HashSet<>();
      boolean[] view = {false};
      for (JsonNode tree : List.of(leftTree, rightTree)) {
        Trees.visit(tree, n -> {
          if ("BASE_TABLE".equals(n.path("type").asText("")) && n.has("table_name")) {
            String name = n.path("table_name").asText("");
            schema.table(name).ifPresent(t -> out.add(t.name().toLowerCase(java.util.Locale.ROOT)));
            view[0] |= schema.view(name).isPresent();
          }
        });
      }
      return view[0] || out.isEmpty() ? null : out;
    }

    /**
     * The query's syntax tree (DuckDB's parser); on PostgreSQL null when DuckDB's parser cannot read a PostgreSQL
     * construct (the check then goes on without the syntactic pass and the query's constants).
     */
    private @Nullable JsonNode parse(String sql, EquivalenceInputException.Part part) {
      Optional<QueryError> refused = postgres() ? PostgresWorkspace.admission(sql)
          : SafeExecutor.on(duck).admission(sql);
      if (refused.isPresent()) {
        throw new EquivalenceInputException(part, refused.get().summary(), refused.get().position());
      }
      try {
        return parser.parse(sql).statement(0);
      } catch (SqlSyntaxException e) {
        if (postgres() && !e.notAQuery()) {
          notes.add("DuckDB's parser cannot read the " + part.name().toLowerCase(java.util.Locale.ROOT)
              + " query (" + e.getMessage() + "): no syntactic pass, values from the schema alone");
          return null;
        }
        throw new EquivalenceInputException(part, e.getMessage(), e.position());
      }
    }

    /** Runs a query on the empty instance: bad input when it does not bind; strict shape when hidden keys fail. */
    private void bind(String sql, JsonNode tree, boolean left, QueryFacts facts) {
      OutputShape shape = left ? leftShape : rightShape;
      Workspace.Result e = ws.run(shape.runnable(), limits());
      if (e.isSuccess()) {
        return;
      }
      Workspace.Result plain = shape.runnable().equals(sql) ? e : ws.run(sql, limits());
      if (!plain.isSuccess()) {
        QueryError err = plain.error().orElseThrow();
        if (err.kind() == ErrorKind.BINDER || err.kind() == ErrorKind.PARSE || err.kind() == ErrorKind.REJECTED) {
          String hint = "";
          for (String unknown : facts.unknownRelations()) {
            if (err.message().contains(unknown)) {
              hint = dev.lakerewrite.sql.DidYouMean.hint(unknown, schema.relationNames());
              break;
            }
          }
          throw new EquivalenceInputException(left ? EquivalenceInputException.Part.LEFT
              : EquivalenceInputException.Part.RIGHT, err.summary() + hint, err.position());
        }
        return; // a runtime failure on the empty instance: judged per instance
      }
      OutputShape strict = tree == null ? OutputShape.asWritten(sql, null, parser)
          : shape.strictFallback(sql, tree, parser);
      if (left) {
        leftShape = strict;
      } else {
        rightShape = strict;
      }
    }

    private QueryLimits limits() {
      return new QueryLimits(queryTimeout, maxComparedRows);
    }

    /**
     * Both queries' answers on one instance and how they compare; {@code rightFailure}: the right query failed on
     * data the left one answers ({@link #failsWhereLeftRuns}), its result then empty.
     */
    private record Trial(OutputComparison.Outcome outcome, ResultTable left, ResultTable right,
        @Nullable String rightFailure) {
      Trial(OutputComparison.Outcome outcome, ResultTable left, ResultTable right) {
        this(outcome, left, right, null);
      }
    }

    /**
     * The trial of an instance on which the left query answers and the right one fails with an error the data
     * caused ({@link #DATA_ERROR}: a scalar subquery returning two rows): the right query cannot replace the left
     * there. A left query that fails where the right one answers is no difference (the right one is defined on
     * more databases), nor is a timeout or a lack of memory.
     */
    private @Nullable Trial failsWhereLeftRuns(Workspace.Result l, Workspace.Result r) {
      if (!l.isSuccess() || r.isSuccess() || l.table().truncated()) {
        return null;
      }
      QueryError e = r.error().orElseThrow();
      if (e.kind() != ErrorKind.RUNTIME || !DATA_ERROR.matcher(e.message()).find()) {
        return null;
      }
      String detail = "the right query fails where the left one returns " + l.table().rowCount() + " row(s): "
          + e.summary();
      return new Trial(new OutputComparison.Outcome(OutputComparison.Kind.DIFFERENT, detail, List.of(), List.of(),
          false), l.table(), ResultTable.empty(), e.summary());
    }

    /** Runs both queries on the loaded instance and compares; null when they cannot be compared there. */
    private Trial trial(Database db) {
      instancesTried++;
      return compare(db.name(), leftQuery.run(queryTimeout), rightQuery.run(queryTimeout));
    }

    private @Nullable Trial compare(String name, Workspace.Result l, Workspace.Result r) {
      Trial failed = failsWhereLeftRuns(l, r);
      if (failed != null) {
        compared++;
        rowsCompared += l.table().rowCount();
        checks.add(new InstanceCheck(name, false, failed.outcome().detail(), l.table().rowCount(), -1, List.of(),
            List.of()));
        return failed;
      }
      if (!l.isSuccess() || !r.isSuccess()) {
        String lf = l.error().map(QueryError::summary).orElse(null);
        String rf = r.error().map(QueryError::summary).orElse(null);
        leftFailure = leftFailure == null ? lf : leftFailure;
        rightFailure = rightFailure == null ? rf : rightFailure;
        String detail = (lf != null && rf != null ? "both queries fail: " + lf
            : lf != null ? "the left query fails: " + lf : "the right query fails: " + rf);
        notes.add("skipped instances where a query fails (e.g. " + name + ": " + detail + ")");
        if (checks.size() < 100) {
          checks.add(new InstanceCheck(name, true, "skipped, " + detail,
              l.isSuccess() ? l.table().rowCount() : -1, r.isSuccess() ? r.table().rowCount() : -1, List.of(),
              List.of()));
        }
        return null;
      }
      if (l.table().truncated() || r.table().truncated()) {
        notes.add("skipped instances where a result has more than " + maxComparedRows + " rows");
        return null;
      }
      OutputComparison.Outcome o = OutputComparison.compare(new OutputComparison.Run(l.table(), leftShape),
          new OutputComparison.Run(r.table(), rightShape), DIFF_ROWS);
      compared++;
      rowsCompared += l.table().rowCount() + r.table().rowCount();
      windowNondeterministic |= o.windowNondeterministic();
      boolean equal = o.kind() != OutputComparison.Kind.DIFFERENT;
      if (checks.size() < 100 || !equal) {
        checks.add(new InstanceCheck(name, equal, o.detail(), l.table().rowCount(), r.table().rowCount(),
            o.onlyLeft(), o.onlyRight()));
      }
      if (o.kind() == OutputComparison.Kind.NONDETERMINISTIC && nondeterministicDetail == null) {
        nondeterministicDetail = o.detail() + " (first seen on " + name + ")";
      }
      if (o.kind() == OutputComparison.Kind.ORDER_NOT_GUARANTEED && orderNotGuaranteed == null) {
        orderNotGuaranteed = o.detail() + " (first seen on " + name + ")";
      }
      return new Trial(o, l.table(), r.table());
    }

    private EquivalenceResult difference(Database failing, Trial first, QueryFacts facts) throws SQLException {
      Database small = failing;
      if (minimize) {
        // Trials are counted (maxMinimizeTests), so the counterexample is as small on a loaded machine as on an idle
        // one; half the check's time budget is only a safety net (a 2.5 s cap left 8 rows where 4 suffice at load
        // 12). Never does the time decide whether the queries differ: every candidate kept still separates them.
        long minimizeDeadline = System.nanoTime() + Math.max(timeBudget.toNanos() / 2, 500_000_000L);
        small = Minimizer.minimize(failing, candidate -> {
          try {
            Database loaded = ws.load(candidate);
            Trial t = quietly(loaded);
            return t != null && t.outcome().kind() == OutputComparison.Kind.DIFFERENT;
          } catch (SQLException e) {
            return false;
          }
        }, maxMinimizeTests, minimizeDeadline);
      }
      if (ws instanceof DuckDbWorkspace d) {
        d.loadOnly(null); // the counterexample as a whole, every table's rows through the engine
      }
      Database loaded = ws.load(small);
      Trial t = quietly(loaded);
      if (t == null || t.outcome().kind() != OutputComparison.Kind.DIFFERENT) {
        loaded = ws.load(failing);
        t = quietly(loaded);
        small = loaded;
      }
      ResultTable leftResult = asWritten(leftSql, t.left());
      ResultTable rightResult = t.rightFailure() != null ? t.right() : asWritten(rightSql, t.right());
      Counterexample ce = new Counterexample(failing.name(), small, leftResult, rightResult, t.rightFailure(),
          t.outcome().detail(), failing.rowCount());
      return differenceResult(ce, facts, (t.rightFailure() != null ? "the right query fails where the left one "
          + "answers on " : "the results differ on ") + failing.name() + ", shrunk to " + ce.rowCount() + " row(s)");
    }

    private EquivalenceResult differenceResult(Counterexample ce, QueryFacts facts, String explanation) {
      if (!facts.nondeterminism().isEmpty() && tiesImpossible(ce, facts)) {
        // Every relation the queries compute holds at most one row there: no tie to break, no order to depend on.
        return result(EquivalenceResult.Verdict.NOT_EQUIVALENT, false, ce, null, explanation + "; the queries use "
            + String.join(", ", facts.nondeterminism()) + ", but on it every table holds at most one row, so "
            + "nothing depends on how ties or arrival order fall", facts);
      }
      if (!facts.nondeterminism().isEmpty()) {
        String why = "the queries use " + String.join(", ", facts.nondeterminism())
            + ", so a difference may come from the engine's choices rather than the data";
        return result(EquivalenceResult.Verdict.UNKNOWN, false, ce, why, explanation, facts);
      }
      return result(EquivalenceResult.Verdict.NOT_EQUIVALENT, false, ce, null, explanation, facts);
    }

    /**
     * Whether the queries' only nondeterminism (window order ties, DISTINCT ON, order-dependent aggregates; not a
     * volatile function) cannot show on this counterexample: a generated one whose every table holds at most one
     * row, read by queries without set operations, VALUES lists or table functions, so that every relation they
     * compute holds at most one row.
     */
    private static boolean tiesImpossible(Counterexample ce, QueryFacts facts) {
      if (ce.rowsBeforeMinimising() < 0 || ce.rows().values().stream().anyMatch(rows -> rows.size() > 1)
          || facts.nondeterminism().stream().anyMatch(r -> r.startsWith("the volatile function"))) {
        return false;
      }
      for (JsonNode statement : facts.statements()) {
        String tree = statement.toString();
        if (MULTI_ROW_SOURCE.matcher(tree).find()) {
          return false;
        }
      }
      return true;
    }

    /** Tree nodes that make rows of their own: set operations, VALUES, table functions, unnest. */
    private static final java.util.regex.Pattern MULTI_ROW_SOURCE = java.util.regex.Pattern.compile(
        "\"(SET_OPERATION_NODE|EXPRESSION_LIST|TABLE_FUNCTION|RECURSIVE_CTE_NODE)\"|\"function_name\":\"(unnest|"
        + "unlist|generate_series|range)\"", java.util.regex.Pattern.CASE_INSENSITIVE);

    /** Both queries as written (with their LIMIT), on the loaded instance; falls back to the compared rows. */
    private ResultTable asWritten(String sql, ResultTable compared) {
      Workspace.Result e = ws.run(sql, limits());
      return e.isSuccess() ? e.table() : compared;
    }

    /** A trial that leaves no trace in the evidence (for minimisation). */
    private @Nullable Trial quietly(Database db) {
      Workspace.Result l = leftQuery.run(queryTimeout);
      Workspace.Result r = rightQuery.run(queryTimeout);
      Trial failed = failsWhereLeftRuns(l, r);
      if (failed != null) {
        return failed;
      }
      if (!l.isSuccess() || !r.isSuccess() || l.table().truncated() || r.table().truncated()) {
        return null;
      }
      return new Trial(OutputComparison.compare(new OutputComparison.Run(l.table(), leftShape),
          new OutputComparison.Run(r.table(), rightShape), DIFF_ROWS), l.table(), r.table());
    }

    private Trial onDatabase() throws SQLException {
      instancesTried++;
      if (postgres()) {
        try (Workspace plain = PostgresWorkspace.plain(database)) {
          return compare("the database itself", plain.run(leftShape.runnable(), limits()),
              plain.run(rightShape.runnable(), limits()));
        }
      }
      SafeExecutor executor = SafeExecutor.on(database);
      return compare("the database itself", Workspace.Result.of(executor.execute(leftShape.runnable(), limits())),
          Workspace.Result.of(executor.execute(rightShape.runnable(), limits())));
    }

    private EquivalenceResult databaseDifference(Trial t, QueryFacts facts) {
      Counterexample ce = new Counterexample("the database itself (too large to shrink)",
          new Database("the database itself", List.of(), Map.of()), t.left(), t.right(), t.rightFailure(),
          t.outcome().detail(), -1);
      return differenceResult(ce, facts, "the results differ on the database itself; no generated instance "
          + "showed it");
    }

    private Map<QueryFacts.ColumnKey, List<String>> real(QueryFacts facts, List<Schema.Table> tables) {
      Map<QueryFacts.ColumnKey, List<String>> out = new java.util.HashMap<>();
      for (QueryFacts.ColumnKey key : facts.columns()) {
        List<String> values = realValues.computeIfAbsent(key, k -> sample(k, tables));
        out.put(key, values);
      }
      return out;
    }

    private List<String> sample(QueryFacts.ColumnKey key, List<Schema.Table> tables) {
      Optional<Schema.Table> t = schema.table(key.table());
      Optional<Schema.Column> c = t.flatMap(x -> x.column(key.column()));
      if (c.isEmpty()) {
        return List.of();
      }
      String column = Sql.quoted(c.get().name());
      String sql = "SELECT DISTINCT CAST(" + column + " AS VARCHAR) FROM (SELECT " + column + " FROM "
          + Sql.quoted(t.get().name()) + " LIMIT 2000) AS sampled WHERE " + column + " IS NOT NULL LIMIT 3";
      List<String> out = new ArrayList<>();
      try (Statement st = database.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      } catch (SQLException e) {
        return List.of();
      }
      return out;
    }

    private EquivalenceResult result(EquivalenceResult.Verdict verdict, boolean proved, @Nullable Counterexample ce,
        @Nullable String reason, String explanation, QueryFacts facts) {
      boolean nondeterministic = windowNondeterministic || nondeterministicDetail != null
          || !facts.nondeterminism().isEmpty();
      if (windowNondeterministic && verdict == EquivalenceResult.Verdict.EQUIVALENT) {
        notes.add("a LIMIT without a total order: on some instances the rows returned depend on how ties are "
            + "broken; both queries allow the same rows there");
      }
      EquivalenceEvidence evidence = new EquivalenceEvidence(verdict == EquivalenceResult.Verdict.EQUIVALENT,
          leftShape != null && leftShape.ordered(), leftShape != null && leftShape.hasWindow(), checks,
          instancesTried, rowsCompared, Duration.ofNanos(System.nanoTime() - start));
      boolean tiesOnly = verdict == EquivalenceResult.Verdict.UNKNOWN && ce == null && nondeterministicDetail != null
          && orderNotGuaranteed == null && compared > 0 && facts.nondeterminism().isEmpty();
      return new EquivalenceResult(verdict, proved, ce, reason, explanation, new ArrayList<>(notes),
          nondeterministic, tiesOnly, evidence, engine.displayName());
    }
  }

  private static String strip(String sql) {
    String body = sql.strip();
    while (body.endsWith(";")) {
      body = body.substring(0, body.length() - 1).strip();
    }
    return body;
  }

  /**
   * Settings of a checker. Defaults: up to 64 generated instances (and the witnesses on top) per check, with a
   * 60-second time budget as a safety net, 10 seconds per query execution, seed 42, counterexamples minimised (at
   * most 400 delta-debugging trials, at most 2.5 seconds), results of up to 100,000 rows compared; with a
   * connection, its data is used (as an instance and as values).
   *
   * <p>The effort of a check is bounded by counts (instances, minimisation trials), so that its verdict is the
   * same on a loaded machine as on an idle one (same seed, schema and queries: same instances, same verdict).
   * The time budget only stops a check that would otherwise run far longer than a normal one; when it does, the
   * result says so in a note beginning with {@link #TIME_BUDGET_NOTE}. Shrinking a counterexample stops after
   * its trials or its time, whichever comes first: that changes only how small the counterexample gets.
   */
  public static final class Builder {
    private @Nullable String ddl;
    private @Nullable Connection connection;
    private boolean useData = true;
    private int maxInstances = 64;
    private Duration timeBudget = Duration.ofSeconds(60);
    private Duration queryTimeout = Duration.ofSeconds(10);
    private long seed = 42;
    private boolean minimize = true;
    private boolean targeted = true;
    private boolean witnesses = true;
    private int maxComparedRows = 100_000;
    private int maxMinimizeTests = 400;
    private int thresholdTrials = THRESHOLD_TRIALS;
    private int mutationTrials = MUTATION_TRIALS;
    private int branchDistanceTrials = BranchDistance.MAX_TRIALS;

    private Builder() {}

    /** The schema as DDL ({@code CREATE TABLE}, {@code CREATE VIEW}, ...; INSERTs add an instance of data). */
    public Builder schema(String ddl) {
      this.ddl = Objects.requireNonNull(ddl, "ddl");
      return this;
    }

    /**
     * A DuckDB connection whose current schema's tables and views the queries use (read from its catalog), and
     * whose data is one more instance and a source of values unless {@link #useData(boolean) useData(false)}.
     * Only read; used from the thread that calls {@link #check}.
     */
    public Builder connection(Connection connection) {
      this.connection = Objects.requireNonNull(connection, "connection");
      return this;
    }

    /** Whether the connection's rows are used (default true). */
    public Builder useData(boolean enabled) {
      this.useData = enabled;
      return this;
    }

    /**
     * Generated instances per check at most, 1 to 10,000; witnesses (instances on which a query returns rows, at
     * most 48) are generated on top of these, so that they never take another kind's place.
     */
    public Builder maxInstances(int n) {
      if (n < 1 || n > 10_000) {
        throw new IllegalArgumentException("maxInstances must be between 1 and 10,000, was " + n);
      }
      this.maxInstances = n;
      return this;
    }

    /**
     * Time per check for generated instances, positive (default 60 seconds): a safety net, not the bound of a
     * check's effort, which is {@link #maxInstances(int)}. A check stops generating once it is spent and notes
     * it ({@link #TIME_BUDGET_NOTE}); a budget a normal check reaches makes verdicts depend on the machine's load.
     */
    public Builder timeBudget(Duration budget) {
      Objects.requireNonNull(budget, "budget");
      if (budget.isNegative() || budget.isZero()) {
        throw new IllegalArgumentException("timeBudget must be positive, was " + budget);
      }
      this.timeBudget = budget;
      return this;
    }

    /** Time limit per query execution, positive. */
    public Builder queryTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("queryTimeout must be positive, was " + timeout);
      }
      this.queryTimeout = timeout;
      return this;
    }

    /** Seed of instance generation (same seed, schema and queries: same instances). */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Whether counterexamples are shrunk by delta debugging (default true). */
    public Builder minimize(boolean enabled) {
      this.minimize = enabled;
      return this;
    }

    /**
     * Whether instances built from the queries' predicates (boundaries, NULLs, one disjunct of each OR, join
     * keys without and with two partners, groups of one and many) come before the random ones (default true;
     * off, every instance after the fixed few is random).
     */
    public Builder targetedInstances(boolean enabled) {
      this.targeted = enabled;
      return this;
    }

    /**
     * Whether the targeted instances include witnesses ({@link Witnesses}: a row per table occurrence meeting a
     * query's joins and constants at once, and their variants); default true. Package-private: for tests that
     * show what witnesses add.
     */
    Builder witnesses(boolean enabled) {
      this.witnesses = enabled;
      return this;
    }

    /**
     * Instances the threshold search ({@link ThresholdSearch}: a cell of an aggregated column moved to where a
     * comparison over aggregates flips) tries per check at most, on top of the others; 0 turns it off, and with it
     * the replicas past a rank threshold ({@link Replicas}, at most {@value Replicas#MAX_TRIALS} more).
     * Package-private: for tests that show what it adds.
     */
    Builder thresholdTrials(int n) {
      this.thresholdTrials = n;
      return this;
    }

    /**
     * Instances the mutation search ({@link MutationSearch}: one cell of an instance with rows edited, a row
     * copied with one cell changed, a row added to an empty table) tries per check at most, on top of the others; 0
     * turns it off, and with it the witnesses put side by side ({@link Replicas#sideBySide}, at most {@value
     * Replicas#MAX_SIDE_BY_SIDE}).
     * Package-private: for tests that show what it adds.
     */
    Builder mutationTrials(int n) {
      this.mutationTrials = n;
      return this;
    }

    /**
     * Instances the branch-distance search ({@link BranchDistance}: a comparison only one query has, evaluated by the
     * engine where it sits, put exactly on its boundary) runs per check at most, on top of the others; 0 turns it
     * off. Package-private: for tests that show what it adds.
     */
    Builder branchDistanceTrials(int n) {
      this.branchDistanceTrials = n;
      return this;
    }

    /** Delta-debugging trials per counterexample at most, 1 to 100,000. */
    public Builder maxMinimizeTests(int n) {
      if (n < 1 || n > 100_000) {
        throw new IllegalArgumentException("maxMinimizeTests must be between 1 and 100,000, was " + n);
      }
      this.maxMinimizeTests = n;
      return this;
    }

    /** Results larger than this are not compared (the instance is skipped), 1 to 50,000,000. */
    public Builder maxComparedRows(int rows) {
      if (rows < 1 || rows > 50_000_000) {
        throw new IllegalArgumentException("maxComparedRows must be between 1 and 50,000,000, was " + rows);
      }
      this.maxComparedRows = rows;
      return this;
    }

    /**
     * The checker.
     *
     * @throws EquivalenceInputException if neither a schema nor a connection was given, the schema script fails
     *     or the connection's catalog cannot be read
     */
    public EquivalenceChecker build() {
      if (ddl == null && connection == null) {
        throw new IllegalStateException("give the schema: schema(ddl) or connection(connection)");
      }
      if (ddl != null && connection != null) {
        throw new IllegalStateException("give the schema once: schema(ddl) or connection(connection), not both");
      }
      if (ddl != null) {
        DuckDbCatalog.Loaded loaded = DuckDbCatalog.load(ddl);
        return new EquivalenceChecker(this, loaded.schema(), loaded.rows().orElse(null),
            dev.lakerewrite.core.Engine.DUCKDB);
      }
      try {
        dev.lakerewrite.core.Engine engine = dev.lakerewrite.core.Engine.of(connection);
        Schema schema = engine == dev.lakerewrite.core.Engine.POSTGRESQL ? PostgresCatalog.read(connection)
            : DuckDbCatalog.read(connection);
        return new EquivalenceChecker(this, schema, null, engine);
      } catch (IllegalArgumentException e) {
        throw new EquivalenceInputException(EquivalenceInputException.Part.DATABASE, e.getMessage(), -1);
      } catch (SQLException e) {
        throw new EquivalenceInputException(EquivalenceInputException.Part.DATABASE,
            "cannot read the database's catalog: " + e.getMessage(), -1);
      }
    }
  }
}
