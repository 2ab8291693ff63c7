package dev.lakerewrite.core.equivalence;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to "can the right query replace the left one?": a {@link Verdict}, how it was reached, and the
 * evidence. {@link Verdict#EQUIVALENT} is either {@link #proved() proved} (the queries' normal forms are equal)
 * or holds on every instance tried (then it is strong evidence, not a proof);
 * {@link Verdict#NOT_EQUIVALENT} always comes with a {@link Counterexample}; {@link Verdict#UNKNOWN} with the
 * {@link #reason() reason} (nondeterministic queries, queries that fail on every instance, a time limit).
 */
public final class EquivalenceResult {
  /** The verdict. */
  public enum Verdict {
    /** The right query returns what the left one returns (proved, or on every instance tried). */
    EQUIVALENT,
    /** There is a database on which they differ: see the counterexample. */
    NOT_EQUIVALENT,
    /** Neither could be established: see the reason. */
    UNKNOWN
  }

  private final Verdict verdict;
  private final boolean proved;
  private final Counterexample counterexample;
  private final String reason;
  private final String explanation;
  private final List<String> notes;
  private final boolean nondeterministic;
  private final boolean tiesOnly;
  private final EquivalenceEvidence evidence;
  private final String engine;

  EquivalenceResult(Verdict verdict, boolean proved, Counterexample counterexample, String reason,
      String explanation, List<String> notes, boolean nondeterministic, boolean tiesOnly, EquivalenceEvidence evidence,
      String engine) {
    this.verdict = Objects.requireNonNull(verdict, "verdict");
    this.proved = proved;
    this.counterexample = counterexample;
    this.reason = reason;
    this.explanation = Objects.requireNonNull(explanation, "explanation");
    this.notes = List.copyOf(notes);
    this.nondeterministic = nondeterministic;
    this.tiesOnly = tiesOnly;
    this.evidence = Objects.requireNonNull(evidence, "evidence");
    this.engine = Objects.requireNonNull(engine, "engine");
  }

  public Verdict verdict() {
    return verdict;
  }

  /** Whether the verdict is EQUIVALENT and proved (not only observed on every instance tried). */
  public boolean proved() {
    return proved;
  }

  /** Shorthand for {@code verdict() == EQUIVALENT}. */
  public boolean isEquivalent() {
    return verdict == Verdict.EQUIVALENT;
  }

  /** A database on which the queries differ (always present for NOT_EQUIVALENT, never for EQUIVALENT). */
  public Optional<Counterexample> counterexample() {
    return Optional.ofNullable(counterexample);
  }

  /** Why the verdict is UNKNOWN. */
  public Optional<String> reason() {
    return Optional.ofNullable(reason);
  }

  /** How the verdict was reached, in one line. */
  public String explanation() {
    return explanation;
  }

  /** Further observations (nondeterminism seen, instances skipped because a query failed there, ...). */
  public List<String> notes() {
    return notes;
  }

  /**
   * Whether a query's answer was seen to depend on how the engine breaks ties (a LIMIT without a total order) or
   * the queries use constructs whose result is not determined by the data.
   */
  public boolean nondeterministic() {
    return nondeterministic;
  }

  /**
   * Whether the verdict is UNKNOWN only because of a LIMIT without a total order: on some instance the two queries
   * kept different rows among rows that tie on the ordering keys, and no instance showed any other difference. Either
   * answer is one the left query itself may return, so a caller that accepts the left query's nondeterminism (the
   * optimizer does) may accept the right query too.
   */
  public boolean tiesOnly() {
    return tiesOnly;
  }

  /** Instances tried, rows compared, time, and the comparison on each instance. */
  public EquivalenceEvidence evidence() {
    return evidence;
  }

  /** The engine the queries ran on: {@code DuckDB} or {@code PostgreSQL}. */
  public String engine() {
    return engine;
  }

  /** A few lines: the verdict, how it was reached, the counterexample or the reason, the notes. */
  public String summary() {
    StringBuilder sb = new StringBuilder(verdict.name());
    if (verdict == Verdict.EQUIVALENT) {
      sb.append(proved ? " (proved)" : " (on every instance tried)");
    }
    sb.append(": ").append(explanation);
    reason().ifPresent(r -> sb.append("\nreason: ").append(r));
    for (String n : notes) {
      sb.append("\nnote: ").append(n);
    }
    sb.append(String.format(java.util.Locale.ROOT, "%n%d instance(s), %d rows compared, %d ms on %s",
        evidence.instancesTried(), evidence.rowsCompared(), evidence.elapsed().toMillis(), engine));
    counterexample().ifPresent(c -> sb.append("\ncounterexample:\n").append(c));
    return sb.toString();
  }

  @Override
  public String toString() {
    return summary();
  }
}
