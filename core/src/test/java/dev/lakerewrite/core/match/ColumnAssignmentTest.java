package dev.lakerewrite.core.match;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The one-to-one assignment and its k best alternatives, against brute force over small random weight tables. */
class ColumnAssignmentTest {

  @Test
  void twoAssumedColumnsNeverReadOneLakeColumn() {
    // state_name and border both prefer `state`; the table has a second state column for one of them.
    Map<String, Map<String, Double>> w = new LinkedHashMap<>();
    w.put("state_name", Map.of("state", 0.9, "border_state", 0.3));
    w.put("border", Map.of("state", 0.8, "border_state", 0.7));
    ColumnAssignment.Assignment best = ColumnAssignment.best(w);
    assertThat(best.pairs()).containsEntry("state_name", "state").containsEntry("border", "border_state");
    assertThat(best.weight()).isEqualTo(1.6, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void anOrderedAssignmentKeepsTheFirstColumnsBestUnlessALaterColumnWouldBeLeftWithNothing() {
    Map<String, Map<String, Double>> w = new LinkedHashMap<>();
    w.put("holder", Map.of("officeholder", 0.45, "instance_of", 0.2));
    w.put("holder_spouse", Map.of("officeholder", 0.47, "jurisdiction", 0.15));
    // The heaviest total gives officeholder to holder_spouse; in order, holder keeps its best.
    assertThat(ColumnAssignment.best(w).pairs()).containsEntry("holder_spouse", "officeholder");
    assertThat(ColumnAssignment.ordered(w).pairs()).containsEntry("holder", "officeholder")
        .containsEntry("holder_spouse", "jurisdiction");

    Map<String, Map<String, Double>> dates = new LinkedHashMap<>();
    dates.put("o_orderpriority", Map.of("ORDR_3", 0.223, "ORDR_4", 0.222));
    dates.put("o_orderdate", Map.of("ORDR_3", 0.41));
    // ORDR_3 is the only column o_orderdate can read.
    assertThat(ColumnAssignment.ordered(dates).pairs()).containsEntry("o_orderpriority", "ORDR_4")
        .containsEntry("o_orderdate", "ORDR_3");
  }

  @Property(tries = 200)
  void anOrderedAssignmentAssignsAsManyColumnsAsAnyAssignmentCan(@ForAll("weights") Map<String, Map<String, Double>> w) {
    ColumnAssignment.Assignment ordered = ColumnAssignment.ordered(w);
    assertOneToOne(ordered, w);
    Map<String, Map<String, Double>> unit = new LinkedHashMap<>();
    w.forEach((a, l) -> {
      Map<String, Double> ones = new LinkedHashMap<>();
      l.forEach((k, v) -> {
        if (v > 0) {
          ones.put(k, 1.0);
        }
      });
      unit.put(a, ones);
    });
    assertThat((double) ordered.pairs().size()).isEqualTo(ColumnAssignment.best(unit).weight());
  }

  @Test
  void kMustBePositive() {
    assertThatThrownBy(() -> ColumnAssignment.kBest(Map.of(), 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("k must be at least 1, was 0");
  }

  @Property(tries = 200)
  void theBestAssignmentIsTheHeaviestOneToOneAssignment(@ForAll("weights") Map<String, Map<String, Double>> w) {
    ColumnAssignment.Assignment best = ColumnAssignment.best(w);
    assertOneToOne(best, w);
    assertThat(best.weight()).isCloseTo(bruteForce(w).get(0), org.assertj.core.data.Offset.offset(1e-9));
  }

  @Property(tries = 100)
  void theKBestAreTheKHeaviestDistinctAssignmentsInOrder(@ForAll("weights") Map<String, Map<String, Double>> w) {
    List<Double> all = bruteForce(w);
    List<ColumnAssignment.Assignment> k = ColumnAssignment.kBest(w, 5);
    assertThat(k).hasSize(Math.min(5, all.size()));
    assertThat(new HashSet<>(k.stream().map(ColumnAssignment.Assignment::pairs).toList())).hasSameSizeAs(k);
    for (int i = 0; i < k.size(); i++) {
      assertOneToOne(k.get(i), w);
      assertThat(k.get(i).weight()).isCloseTo(all.get(i), org.assertj.core.data.Offset.offset(1e-9));
    }
  }

  private static void assertOneToOne(ColumnAssignment.Assignment a, Map<String, Map<String, Double>> w) {
    assertThat(new HashSet<>(a.pairs().values())).hasSameSizeAs(a.pairs().values());
    double sum = 0;
    for (Map.Entry<String, String> p : a.pairs().entrySet()) {
      double weight = w.get(p.getKey()).getOrDefault(p.getValue(), 0.0);
      assertThat(weight).isPositive();
      sum += weight;
    }
    assertThat(a.weight()).isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-9));
  }

  /** The weights of every distinct one-to-one partial assignment over positive weights, heaviest first. */
  private static List<Double> bruteForce(Map<String, Map<String, Double>> w) {
    List<String> assumed = new ArrayList<>(w.keySet());
    List<Double> out = new ArrayList<>();
    enumerate(assumed, 0, w, new LinkedHashMap<>(), out);
    out.sort((a, b) -> Double.compare(b, a));
    return out;
  }

  private static void enumerate(List<String> assumed, int i, Map<String, Map<String, Double>> w,
      Map<String, String> current, List<Double> out) {
    if (i == assumed.size()) {
      double sum = 0;
      for (Map.Entry<String, String> p : current.entrySet()) {
        sum += w.get(p.getKey()).get(p.getValue());
      }
      out.add(sum);
      return;
    }
    String a = assumed.get(i);
    Set<String> taken = new HashSet<>(current.values());
    enumerate(assumed, i + 1, w, current, out); // a left out
    for (Map.Entry<String, Double> l : w.get(a).entrySet()) {
      if (l.getValue() > 0 && !taken.contains(l.getKey())) {
        current.put(a, l.getKey());
        enumerate(assumed, i + 1, w, current, out);
        current.remove(a);
      }
    }
  }

  @Provide
  Arbitrary<Map<String, Map<String, Double>>> weights() {
    Arbitrary<Double> weight = Arbitraries.integers().between(1, 100).map(x -> x / 100.0);
    Arbitrary<Map<String, Double>> row = Arbitraries.maps(Arbitraries.of("l1", "l2", "l3", "l4"), weight)
        .ofMinSize(1).ofMaxSize(4);
    return Arbitraries.maps(Arbitraries.of("a1", "a2", "a3"), row).ofMinSize(1).ofMaxSize(3);
  }
}
