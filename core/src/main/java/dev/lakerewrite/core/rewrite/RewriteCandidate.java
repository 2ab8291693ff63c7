package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.match.ColumnMapping;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One rewritten query in the rewrite history, with its execution outcome and the checker's judgement.
 *
 * @param index position in the history (0-based); OUTPUT_QUERY refers to it
 * @param iteration the iteration that proposed it (1-based)
 * @param sql the SQL as proposed
 * @param reason the rewriter's rationale
 * @param usedTables lake tables the candidate reads
 * @param result the result, when it ran
 * @param error the error, when it did not
 * @param elapsed execution time
 * @param score the checker's score in [0, 1] (higher is better), updated as evidence grows
 * @param assessment the checker's short judgement of it
 * @param mapping the column mapping it applies, when its agent reports one
 */
public record RewriteCandidate(int index, int iteration, String sql, String reason, List<String> usedTables,
    Optional<ResultTable> result, Optional<QueryError> error, Duration elapsed, double score,
    List<String> assessment, ColumnMapping mapping) {

  /** A candidate without a known mapping. */
  public RewriteCandidate(int index, int iteration, String sql, String reason, List<String> usedTables,
      Optional<ResultTable> result, Optional<QueryError> error, Duration elapsed, double score,
      List<String> assessment) {
    this(index, iteration, sql, reason, usedTables, result, error, elapsed, score, assessment, ColumnMapping.NONE);
  }

  public RewriteCandidate {
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(reason, "reason");
    usedTables = List.copyOf(usedTables);
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(error, "error");
    assessment = List.copyOf(assessment);
    mapping = mapping == null ? ColumnMapping.NONE : mapping;
  }

  public boolean succeeded() {
    return result.isPresent();
  }

  /** A copy with the checker's score and judgement. */
  public RewriteCandidate judged(double newScore, List<String> newAssessment) {
    return new RewriteCandidate(index, iteration, sql, reason, usedTables, result, error, elapsed, newScore, newAssessment,
        mapping);
  }

  /** How prompts show it: index, SQL, and its error or a result preview. */
  public String render(int previewRows) {
    StringBuilder sb = new StringBuilder();
    sb.append("[").append(index).append("] (iteration ").append(iteration).append(")\n").append(sql.strip())
        .append('\n');
    if (error.isPresent()) {
      sb.append("Execution error: ").append(error.get().summary());
    } else {
      ResultTable t = result.orElseThrow();
      sb.append("Result: ").append(t.rowCount()).append(t.truncated() ? "+" : "").append(" rows\n")
          .append(t.preview(previewRows));
    }
    if (!assessment.isEmpty()) {
      sb.append("\nChecker: ").append(String.join("; ", assessment));
    }
    return sb.toString();
  }
}
