package dev.lakerewrite.noiseudf;

import java.util.Objects;

/** A distinct cell value and how many rows hold it. */
public record ValueCount(String value, long count) {
  public ValueCount {
    Objects.requireNonNull(value, "value");
    if (count < 1) {
      throw new IllegalArgumentException("count must be >= 1, got " + count + " for '" + value + "'");
    }
  }
}
