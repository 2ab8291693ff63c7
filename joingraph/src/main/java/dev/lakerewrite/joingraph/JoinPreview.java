package dev.lakerewrite.joingraph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The first rows of an executed join path; columns are named {@code table.column}, values are rendered as text
 * (null stays null).
 */
public record JoinPreview(List<String> columns, List<List<@Nullable String>> rows) {
  public JoinPreview {
    columns = List.copyOf(columns);
    List<List<String>> copy = new ArrayList<>();
    for (List<String> row : rows) {
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
  }

  static final JoinPreview EMPTY = new JoinPreview(List.of(), List.of());
}
