package dev.lakerewrite.eval;

import java.util.Locale;
import java.util.Optional;

/** How hard a pair is (thesis §7.1): its label in pair files is the lower-case name. */
public enum Difficulty {
  EASY,
  MEDIUM,
  HARD;

  /** The label used in pair files: {@code easy}, {@code medium}, {@code hard}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The difficulty with this label, ignoring case and surrounding whitespace. */
  public static Optional<Difficulty> fromLabel(String label) {
    if (label == null) {
      return Optional.empty();
    }
    String wanted = label.strip();
    for (Difficulty d : values()) {
      if (d.label().equalsIgnoreCase(wanted)) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }
}
