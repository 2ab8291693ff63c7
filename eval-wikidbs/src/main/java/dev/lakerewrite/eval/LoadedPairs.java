package dev.lakerewrite.eval;

import java.util.List;
import java.util.Objects;

/**
 * What loading a pair file gives: the pairs that passed validation, and every problem found.
 *
 * @param source the file or resource name
 * @param lake the {@code lake} the file says its pairs are written for, empty when it does not say
 * @param description the file's {@code description}, empty when absent
 * @param pairs the valid pairs, in file order
 * @param problems every problem, in file order; errors dropped their pair, warnings did not
 */
public record LoadedPairs(
    String source, String lake, String description, List<QueryResultPair> pairs, List<PairProblem> problems) {

  public LoadedPairs {
    Objects.requireNonNull(source, "source");
    lake = lake == null ? "" : lake;
    description = description == null ? "" : description;
    pairs = List.copyOf(pairs);
    problems = List.copyOf(problems);
  }

  /** The problems that dropped a pair or stopped reading. */
  public List<PairProblem> errors() {
    return problems.stream().filter(p -> p.severity() == PairProblem.Severity.ERROR).toList();
  }

  /** The problems that kept their pair. */
  public List<PairProblem> warnings() {
    return problems.stream().filter(p -> p.severity() == PairProblem.Severity.WARNING).toList();
  }

  /** True when nothing at all was found wrong. */
  public boolean isClean() {
    return problems.isEmpty();
  }

  /** One line per problem, for logs and the run report. */
  public String problemReport() {
    StringBuilder sb = new StringBuilder();
    for (PairProblem p : problems) {
      sb.append(p).append('\n');
    }
    return sb.toString();
  }
}
