package dev.lakerewrite.eval;

import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.rewrite.RewriteCandidate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How one rewrite found the tables its pair requires (thesis §7.4.3, table 7.4). A table is discovered when it
 * enters the rewriter's view: basic retrieval, a proposal that uses it, or a SEARCH_TABLE, UNION_SEARCH or
 * FIND_JOIN_PATH result (see {@code TraceFacts}). Names compare ignoring case.
 *
 * @param required the pair's required tables
 * @param found the required tables discovered, in discovery order
 * @param seen how many distinct tables entered the view in all
 * @param terminationIteration the iteration the rewrite stopped in
 * @param fullCoverageIteration the iteration in which the last required table was discovered, when all were
 * @param chosenUses the required tables the chosen query reads
 */
public record TableDiscovery(List<String> required, List<String> found, int seen, int terminationIteration,
    OptionalInt fullCoverageIteration, List<String> chosenUses) {

  public TableDiscovery {
    required = List.copyOf(required);
    found = List.copyOf(found);
    Objects.requireNonNull(fullCoverageIteration, "fullCoverageIteration");
    chosenUses = List.copyOf(chosenUses);
  }

  /** Reads discovery from a finished rewrite. */
  static TableDiscovery of(List<String> required, RewriteResult result) {
    Set<String> wanted = required.stream().map(t -> t.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    List<String> found = new ArrayList<>();
    int last = 0;
    List<TraceFacts.Sighting> sightings = TraceFacts.sightings(result.trace());
    for (TraceFacts.Sighting s : sightings) {
      if (wanted.contains(s.table().toLowerCase(Locale.ROOT))) {
        found.add(s.table());
        last = Math.max(last, s.iteration());
      }
    }
    OptionalInt full = found.size() == wanted.size() && !wanted.isEmpty() ? OptionalInt.of(Math.max(1, last))
        : OptionalInt.empty();
    List<String> uses = new ArrayList<>();
    result.chosenCandidate().map(RewriteCandidate::usedTables).orElse(List.of()).forEach(t -> {
      if (wanted.contains(t.toLowerCase(Locale.ROOT)) && !uses.contains(t)) {
        uses.add(t);
      }
    });
    return new TableDiscovery(required, found, sightings.size(), result.iterations(), full, uses);
  }

  /** Share of required tables discovered, in [0, 1] (1 when none are required). */
  public double coverage() {
    return required.isEmpty() ? 1.0 : (double) found.size() / required.size();
  }

  /** Whether every required table was discovered. */
  public boolean complete() {
    return found.size() == required.size();
  }

  /** Share of required tables the chosen query reads. */
  public double chosenCoverage() {
    return required.isEmpty() ? 1.0 : (double) chosenUses.size() / required.size();
  }
}
