package dev.lakerewrite.eval;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The seven kinds of wrong assumption a user query can make (thesis §7.1). A pair can carry several.
 */
public enum DifficultyTag {
  /** Tables or columns are named differently in the lake ({@code country} vs {@code nation}). */
  NAME_MISMATCH("Name Mismatch"),
  /** The query omits tables needed to answer it: data the user assumes in one table is split over several. */
  MISSING_TABLE("Missing Table"),
  /** The query references a table that is irrelevant in the lake and can be omitted. */
  OBSOLETE_TABLE("Obsolete Table"),
  /** A join uses the wrong key columns. */
  KEY_MISMATCH("Key Mismatch"),
  /** A filter uses wrong values or predicates (spellings, codes, ranges). */
  FILTER_MISMATCH("Filter Mismatch"),
  /** The answer needs a union of semantically related tables. */
  UNION("Union"),
  /** The data is noisy; the pair runs on the noisy variant of the lake. */
  NOISE("Noise");

  private final String label;

  DifficultyTag(String label) {
    this.label = label;
  }

  /** The label used in pair files and reports, e.g. {@code "Name Mismatch"}. */
  public String label() {
    return label;
  }

  /** All labels, in declaration order. */
  public static List<String> labels() {
    return Arrays.stream(values()).map(DifficultyTag::label).toList();
  }

  /**
   * The tag with this label. Case, spaces, underscores and hyphens are ignored, so {@code "name_mismatch"},
   * {@code "NAME-MISMATCH"} and {@code "Name Mismatch"} are the same tag.
   */
  public static Optional<DifficultyTag> fromLabel(String label) {
    if (label == null) {
      return Optional.empty();
    }
    String key = LabelKeys.key(label);
    for (DifficultyTag tag : values()) {
      if (LabelKeys.key(tag.label).equals(key)) {
        return Optional.of(tag);
      }
    }
    return Optional.empty();
  }


  @Override
  public String toString() {
    return label;
  }
}
