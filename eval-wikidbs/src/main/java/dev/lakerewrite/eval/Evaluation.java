package dev.lakerewrite.eval;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.LakeRewriter;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.llm.LlmUsage;
import dev.lakerewrite.core.rewrite.RewriteCandidate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Runs pairs through rewriters and scores them (thesis §7.3): every pair with every variant (method × ablation ×
 * model), Noise pairs on the noisy lake, predictions scored against the gold results computed on the clean lake.
 *
 * <pre>{@code
 * EvaluationResult r = Evaluation.builder()
 *     .lake(clean).noisyLake(noisy)                 // noisy: the seeded injector's copy (see NoisyLakes)
 *     .pairs(loaded.pairs())                        // with result tables (PairLoader with a gold runner)
 *     .variant(Variant.of(EvalMethod.ITERATIVE, EvalModel.OFFLINE))
 *     .outputDirectory(out)                         // traces/<variant>/<pair>.jsonl
 *     .build().run();
 * }</pre>
 *
 * <p>A pair never stops the run: a rewrite that throws is recorded as {@link PairStatus#FAILED}, one that does not
 * return in time as {@link PairStatus#TIMED_OUT}, each with its reason, and the run goes on. Each rewrite gets the
 * pair timeout as its loop's wall-time budget (the loop then returns its best candidate so far); the hard limit,
 * after which the rewrite is abandoned, adds a grace of a tenth of it (2–60 s). An LLM baseline without a model is
 * skipped with its reason. Before timing, one untimed offline one-step rewrite per pair warms up what the lake
 * loads and caches on first use ({@link Builder#warmUp}), so latencies are steady-state and comparable across
 * variants. Immutable; {@link #run()} may be called again.
 */
public final class Evaluation {

  /** How a rewrite is called: the seam tests use to make a rewrite fail or hang. */
  @FunctionalInterface
  interface RewriteCall {
    RewriteResult rewrite(LakeRewriter rewriter, String sql, DataLake lake);
  }

  private final DataLake lake;
  private final DataLake noisyLake;
  private final String noNoisyLakeReason;
  private final List<QueryResultPair> pairs;
  private final List<Variant> variants;
  private final int maxIterations;
  private final Duration pairTimeout;
  private final int jobs;
  private final Path outputDirectory;
  private final ProgressListener listener;
  private final RewriteCall call;
  private final boolean warmUp;
  private final MappingAccuracy.ChosenMapping chosenMapping;

  private Evaluation(Builder b) {
    this.lake = b.lake;
    this.noisyLake = b.noisyLake;
    this.noNoisyLakeReason = b.noNoisyLakeReason;
    this.pairs = List.copyOf(b.pairs);
    this.variants = List.copyOf(b.variants);
    this.maxIterations = b.maxIterations;
    this.pairTimeout = b.pairTimeout;
    this.jobs = b.jobs;
    this.outputDirectory = b.outputDirectory;
    this.listener = b.listener;
    this.call = b.call;
    this.warmUp = b.warmUp;
    this.chosenMapping = b.chosenMapping;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The pairs this evaluation runs. */
  public List<QueryResultPair> pairs() {
    return pairs;
  }

  /** The variants it runs (including those that will be skipped). */
  public List<Variant> variants() {
    return variants;
  }

  /** The hard per-pair limit: the timeout plus a grace of a tenth of it, at least 2 s and at most 60 s. */
  public Duration hardLimit() {
    long grace = Math.max(2_000, Math.min(60_000, pairTimeout.toMillis() / 10));
    return pairTimeout.plusMillis(grace);
  }

  /**
   * Runs every pair with every variant.
   *
   * @throws InterruptedException if the calling thread is interrupted (running rewrites are abandoned)
   */
  public EvaluationResult run() throws InterruptedException {
    Instant started = Instant.now();
    List<EvaluationResult.VariantRun> runs = new ArrayList<>();
    List<EvaluationResult.SkippedVariant> skipped = new ArrayList<>();
    List<Variant> runnable = new ArrayList<>();
    for (Variant v : variants) {
      Optional<String> why = v.unavailableReason();
      if (why.isPresent()) {
        skipped.add(new EvaluationResult.SkippedVariant(v, why.get()));
        listener.variantSkipped(v, why.get());
      } else {
        runnable.add(v);
      }
    }
    Duration warmUpTime = Duration.ZERO;
    if (warmUp && !runnable.isEmpty() && !pairs.isEmpty()) {
      listener.warmUpStarted(pairs.size());
      warmUpTime = warmUp();
    }
    listener.runStarted(runnable, runnable.size() * pairs.size());
    ExecutorService rewrites = Executors.newCachedThreadPool(daemons("lakerewrite-eval-rewrite"));
    ExecutorService workers = Executors.newFixedThreadPool(jobs, daemons("lakerewrite-eval-worker"));
    try {
      for (Variant v : runnable) {
        LakeRewriter rewriter;
        try {
          rewriter = v.rewriter(maxIterations, pairTimeout);
        } catch (RuntimeException e) {
          String why = "cannot configure the rewriter: " + describe(e);
          skipped.add(new EvaluationResult.SkippedVariant(v, why));
          listener.variantSkipped(v, why);
          continue;
        }
        listener.variantStarted(v, pairs.size());
        List<Future<PairOutcome>> futures = new ArrayList<>();
        for (QueryResultPair p : pairs) {
          futures.add(workers.submit(() -> {
            PairOutcome o = runPair(v, rewriter, p, rewrites);
            try {
              listener.pairFinished(o);
            } catch (RuntimeException e) {
              // A listener (progress, log) never changes or loses an outcome.
            }
            return o;
          }));
        }
        List<PairOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < futures.size(); i++) {
          try {
            outcomes.add(futures.get(i).get());
          } catch (ExecutionException e) {
            // runPair catches everything; an Error thrown past it lands here.
            outcomes.add(PairOutcome.without(v, pairs.get(i), PairStatus.FAILED,
                "the harness failed: " + describe(e.getCause()), pairs.get(i).noisy(), 0));
          }
        }
        VariantSummary summary = VariantSummary.of(v, outcomes);
        runs.add(new EvaluationResult.VariantRun(v, outcomes, summary));
        listener.variantFinished(v, summary);
      }
    } finally {
      workers.shutdownNow();
      rewrites.shutdownNow();
    }
    EvaluationResult result = new EvaluationResult(runs, skipped, started, Instant.now(), warmUpTime);
    listener.runFinished(result);
    return result;
  }

  /**
   * One untimed offline one-step rewrite per pair, on the lake the pair runs on, before anything is timed. The
   * lake's services build some caches lazily, per table, on first use (value search, cleaning analysis, join
   * previews: seconds per table on the sample); without this the first variant would pay them on its early pairs
   * and the variants' latencies would not compare. Its failures are ignored: the real runs meet and record them.
   */
  private Duration warmUp() {
    if (!warmUp) {
      return Duration.ZERO;
    }
    long t0 = System.nanoTime();
    LakeRewriter quick = Rewriter.builder().method(Rewriter.Method.ONE_STEP).build();
    for (QueryResultPair p : pairs) {
      DataLake target = p.noisy() ? noisyLake : lake;
      if (target != null) {
        quietly(() -> quick.rewrite(p.userQuery(), target));
      }
    }
    return Duration.ofNanos(System.nanoTime() - t0);
  }

  private static void quietly(Runnable r) {
    try {
      r.run();
    } catch (RuntimeException | LinkageError e) {
      // See warmUp().
    }
  }

  private PairOutcome runPair(Variant v, LakeRewriter rewriter, QueryResultPair p, ExecutorService rewrites) {
    boolean noisy = p.noisy();
    if (noisy && noisyLake == null) {
      return PairOutcome.without(v, p, PairStatus.SKIPPED, noNoisyLakeReason, true, 0);
    }
    DataLake target = noisy ? noisyLake : lake;
    long t0 = System.nanoTime();
    Future<RewriteResult> future = rewrites.submit(() -> call.rewrite(rewriter, p.userQuery(), target));
    RewriteResult r;
    try {
      r = future.get(hardLimit().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      return PairOutcome.without(v, p, PairStatus.TIMED_OUT, "no answer within " + seconds(hardLimit())
          + " (the loop's wall-time budget is " + seconds(pairTimeout) + "); the rewrite was abandoned", noisy,
          millisSince(t0));
    } catch (ExecutionException e) {
      return PairOutcome.without(v, p, PairStatus.FAILED, "the rewrite threw " + describe(e.getCause()), noisy,
          millisSince(t0));
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      return PairOutcome.without(v, p, PairStatus.FAILED, "interrupted", noisy, millisSince(t0));
    }
    long millis = millisSince(t0);
    try {
      return outcome(v, p, r, noisy, millis);
    } catch (RuntimeException e) {
      return PairOutcome.without(v, p, PairStatus.FAILED, "scoring the rewrite failed: " + describe(e), noisy, millis);
    }
  }

  private PairOutcome outcome(Variant v, QueryResultPair p, RewriteResult r, boolean noisy, long millis) {
    Optional<PlainTable> prediction = r.result().map(LakeQueryRunner::toPlainTable);
    ResultScore score = p.score(prediction.orElse(null));
    PairStatus status = prediction.isPresent() ? PairStatus.COMPLETED : PairStatus.NO_RESULT;
    String reason = prediction.isPresent() ? ""
        : r.error().map(QueryError::summary).orElse(r.stopReason() + ": " + r.stopDetail());
    List<String> assumed = TraceFacts.assumedOutputs(r.trace());
    List<Double> candidateF1 = new ArrayList<>();
    for (RewriteCandidate c : r.candidates()) {
      candidateF1.add(c.result()
          .map(t -> p.score(CandidateSelection.presented(LakeQueryRunner.toPlainTable(t), assumed)).f1())
          .orElse(Double.NaN));
    }
    CandidateSelection selection = new CandidateSelection(candidateF1, r.chosen(), r.chosen() >= 0 ? score.f1() : 0);
    LlmUsage usage = r.usage();
    Optional<MappingAccuracy.Score> mapping = chosenMapping.of(r)
        .flatMap(chosen -> MappingAccuracy.score(p.goldMapping(), chosen));
    return new PairOutcome(v, p, status, reason, noisy, r.sql(), prediction,
        r.result().map(ResultTable::truncated).orElse(false), score, r.iterations(), r.stopReason().name(),
        TraceFacts.executedActions(r.trace()), TraceFacts.requestedActions(r.trace()), millis, usage.calls(),
        usage.totalTokens(), usage.costUsd(), Optional.of(TableDiscovery.of(p.requiredTables(), r)),
        Optional.of(selection), writeTrace(v, p, r), mapping);
  }

  /** Writes the trace as {@code traces/<variant>/<pair>.jsonl}; returns its path relative to the output folder. */
  private Optional<String> writeTrace(Variant v, QueryResultPair p, RewriteResult r) {
    if (outputDirectory == null) {
      return Optional.empty();
    }
    String relative = "traces/" + fileName(v.name()) + "/" + fileName(p.id()) + ".jsonl";
    Path file = outputDirectory.resolve(relative);
    try {
      Files.createDirectories(file.getParent());
      r.trace().writeJsonLines(file);
      return Optional.of(relative);
    } catch (IOException | UncheckedIOException e) {
      return Optional.empty();
    }
  }

  /** A name safe in a file name on every platform. */
  static String fileName(String name) {
    return name.replaceAll("[^A-Za-z0-9._@-]+", "_");
  }

  /** {@code Kind: message (at Class.method(File.java:12))}. */
  static String describe(Throwable t) {
    if (t == null) {
      return "an unknown error";
    }
    StringBuilder sb = new StringBuilder(t.getClass().getSimpleName());
    if (t.getMessage() != null) {
      sb.append(": ").append(t.getMessage());
    }
    StackTraceElement[] frames = t.getStackTrace();
    if (frames.length > 0) {
      sb.append(" (at ").append(frames[0]).append(')');
    }
    return sb.toString();
  }

  private static long millisSince(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : String.format("%.1f s", d.toMillis() / 1000.0);
  }

  private static ThreadFactory daemons(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Configures an {@link Evaluation}. Defaults: 5 iterations (thesis §7.3), 600 s per pair, one pair at a time,
   * no traces written, no noisy lake (Noise pairs are skipped).
   */
  public static final class Builder {
    private @Nullable DataLake lake;
    private @Nullable DataLake noisyLake;
    private String noNoisyLakeReason = "no noisy lake was given: Noise pairs run only on the noisy lake";
    private @Nullable List<QueryResultPair> pairs;
    private final List<Variant> variants = new ArrayList<>();
    private int maxIterations = 5;
    private Duration pairTimeout = Duration.ofSeconds(600);
    private int jobs = 1;
    private @Nullable Path outputDirectory;
    private ProgressListener listener = ProgressListener.NONE;
    private RewriteCall call = (rewriter, sql, lake) -> rewriter.rewrite(sql, lake);
    private boolean warmUp = true;
    private MappingAccuracy.ChosenMapping chosenMapping = MappingAccuracy.ChosenMapping.REPORTED;

    private Builder() {}

    /** The clean lake: every pair but the Noise pairs runs on it. */
    public Builder lake(DataLake lake) {
      this.lake = Objects.requireNonNull(lake, "lake");
      return this;
    }

    /** The noisy copy of the lake, for the Noise pairs. */
    public Builder noisyLake(DataLake noisyLake) {
      this.noisyLake = Objects.requireNonNull(noisyLake, "noisyLake");
      return this;
    }

    /** Why there is no noisy lake (the reason skipped Noise pairs report). */
    public Builder noNoisyLake(String reason) {
      this.noisyLake = null;
      this.noNoisyLakeReason = Objects.requireNonNull(reason, "reason");
      return this;
    }

    /** The pairs, each with its gold result (load them with a gold runner on the clean lake). */
    public Builder pairs(List<QueryResultPair> pairs) {
      Objects.requireNonNull(pairs, "pairs");
      for (QueryResultPair p : pairs) {
        if (!Objects.requireNonNull(p, "pair").hasResultTable()) {
          throw new IllegalArgumentException("pair '" + p.id() + "' has no result table; load the pairs with "
              + "PairLoader.builder().goldRunner(...) so gold results are computed on the clean lake");
        }
      }
      this.pairs = List.copyOf(pairs);
      return this;
    }

    /** Adds a variant to run. */
    public Builder variant(Variant variant) {
      Objects.requireNonNull(variant, "variant");
      if (variants.stream().anyMatch(v -> v.name().equals(variant.name()))) {
        throw new IllegalArgumentException("variant " + variant.name() + " is given twice");
      }
      variants.add(variant);
      return this;
    }

    /** Adds variants to run, in order. */
    public Builder variants(List<Variant> variants) {
      variants.forEach(this::variant);
      return this;
    }

    /** Iterations of the iterative method (thesis §7.3: five). */
    public Builder maxIterations(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("maxIterations must be at least 1, was " + n);
      }
      this.maxIterations = n;
      return this;
    }

    /** Wall time per pair: the loop's budget; the hard limit adds a grace (see {@link Evaluation#hardLimit()}). */
    public Builder pairTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("pairTimeout must be positive, was " + timeout);
      }
      this.pairTimeout = timeout;
      return this;
    }

    /**
     * How to read the column mapping a rewrite chose, to score it against the pairs' gold mappings
     * ({@link MappingAccuracy}); default: not reported, so no mapping accuracy.
     */
    public Builder chosenMapping(MappingAccuracy.ChosenMapping reader) {
      this.chosenMapping = Objects.requireNonNull(reader, "reader");
      return this;
    }

    /** Pairs run at once (rewriters and lakes are thread-safe); latencies are measured per pair either way. */
    public Builder jobs(int jobs) {
      if (jobs < 1) {
        throw new IllegalArgumentException("jobs must be at least 1, was " + jobs);
      }
      this.jobs = jobs;
      return this;
    }

    /** Where traces go ({@code traces/<variant>/<pair>.jsonl}); none are written without it. */
    public Builder outputDirectory(Path dir) {
      this.outputDirectory = Objects.requireNonNull(dir, "dir");
      return this;
    }

    public Builder listener(ProgressListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Whether to run one untimed offline one-step rewrite per pair first (default true), so one-time loading and
     * per-table caching costs are not counted in the first variant's latencies; {@link EvaluationResult#warmUp()}
     * reports its time. Off measures cold latencies.
     */
    public Builder warmUp(boolean on) {
      this.warmUp = on;
      return this;
    }

    Builder rewriteCall(RewriteCall call) {
      this.call = Objects.requireNonNull(call, "call");
      return this;
    }

    /**
     * @throws IllegalStateException without a lake, pairs or variants
     */
    public Evaluation build() {
      if (lake == null) {
        throw new IllegalStateException("an evaluation needs a lake: call lake(...)");
      }
      if (pairs == null) {
        throw new IllegalStateException("an evaluation needs pairs: call pairs(...)");
      }
      if (variants.isEmpty()) {
        throw new IllegalStateException("an evaluation needs at least one variant: call variant(...)");
      }
      return new Evaluation(this);
    }
  }
}
