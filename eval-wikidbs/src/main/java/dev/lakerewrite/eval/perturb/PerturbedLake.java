package dev.lakerewrite.eval.perturb;

import dev.lakerewrite.eval.QueryResultPair;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What {@link LakePerturber#perturb} wrote.
 *
 * @param folder the output folder
 * @param lake the disorganized lake: a folder of CSV files ({@code DataLake.fromCsvFolder})
 * @param noisyLake the same lake with seeded cell noise in {@link LakePlan#noiseTables()}, when any got noise; the
 *     Noise pairs run there
 * @param pairFile the pairs, in the harness's pair format with gold mappings ({@code pairs.json})
 * @param manifest what was done ({@code manifest.json}): the plan, the dropped queries, the counts
 * @param plan the plan
 * @param pairs the verified pairs (gold results = the source query's results)
 * @param dropped queries that gave no pair, with the reason
 */
public record PerturbedLake(Path folder, Path lake, Optional<Path> noisyLake, Path pairFile, Path manifest,
    LakePlan plan, List<QueryResultPair> pairs, List<Dropped> dropped) {

  public PerturbedLake {
    Objects.requireNonNull(folder, "folder");
    pairs = List.copyOf(pairs);
    dropped = List.copyOf(dropped);
  }

  /** A query that gave no pair: its golden query failed or did not reproduce the source result, and similar. */
  public record Dropped(String queryId, String reason) {}

  /** Dropped queries per reason (the reason's first words, before any ':'). */
  public Map<String, Long> droppedByReason() {
    Map<String, Long> out = new TreeMap<>();
    dropped.forEach(d -> out.merge(d.reason().split(":", 2)[0], 1L, Long::sum));
    return Collections.unmodifiableMap(out);
  }
}
