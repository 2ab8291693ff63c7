package dev.lakerewrite.core.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScratchpadTest {
  private final Scratchpad pad = new Scratchpad(Map.of(Scratchpad.Section.JOINS, 4));

  private List<String> joins() {
    return pad.entries(Scratchpad.Section.JOINS).stream().map(Scratchpad.Entry::key).toList();
  }

  @Test
  void aFullSectionLetsItsOldestEntryGo() {
    for (String k : List.of("a|b", "a|c", "a|d", "a|e", "a|f")) {
      pad.add(Scratchpad.Section.JOINS, k, 1, k, k);
    }
    assertThat(joins()).containsExactly("a|c", "a|d", "a|e", "a|f");
    assertThat(pad.timeEvicted()).extracting(Scratchpad.Entry::key).containsExactly("a|b");
  }

  @Test
  void alternativesGoBeforeAnyFirstChoiceHowOldSoEver() {
    // Three searches, each its best path and an alternative: the first search's best path outlives the later
    // searches' alternatives.
    for (String pair : List.of("a|b", "a|c", "a|d")) {
      pad.add(Scratchpad.Section.JOINS, pair + "|0", 1, pair, pair);
      pad.addAlternative(Scratchpad.Section.JOINS, pair + "|1", 1, pair + " again", pair);
    }
    assertThat(joins()).containsExactly("a|b|0", "a|c|0", "a|d|0", "a|d|1");
    assertThat(pad.timeEvicted()).extracting(Scratchpad.Entry::key).containsExactly("a|b|1", "a|c|1");
  }

  @Test
  void anAlternativeAddedAgainAsFirstChoiceIsOneNoMore() {
    pad.addAlternative(Scratchpad.Section.JOINS, "a|b|1", 1, "ab", "ab");
    pad.add(Scratchpad.Section.JOINS, "a|b|1", 2, "ab", "ab");
    for (String k : List.of("a|c", "a|d", "a|e")) {
      pad.addAlternative(Scratchpad.Section.JOINS, k, 2, k, k);
    }
    pad.add(Scratchpad.Section.JOINS, "a|f", 2, "af", "af");
    assertThat(joins()).containsExactly("a|b|1", "a|d", "a|e", "a|f");
  }
}
