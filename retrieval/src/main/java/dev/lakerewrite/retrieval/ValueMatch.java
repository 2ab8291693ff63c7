package dev.lakerewrite.retrieval;

import java.util.List;
import java.util.Map;

/**
 * A distinct cell value found by SEARCH_VALUE (thesis §5.3).
 *
 * @param table the table id
 * @param column the column holding the value
 * @param value the value as the lake stores it (cast to text)
 * @param score {@code similarity + literalBonus}
 * @param similarity cosine between the embeddings of the sought and the found value; for columns whose values
 *     are not embedded (numbers, booleans, dates) 1 when the comparison forms are equal, else 0
 * @param literal the strongest literal match
 * @param literalBonus the bonus that match earned, at most {@link LiteralMatch#maxBonus()}
 * @param rows rows holding the value (in the indexed sample)
 * @param exampleRows a few rows holding it, matched column first (empty unless a connection was given)
 * @param why a one-line explanation
 */
public record ValueMatch(String table, String column, String value, double score, double similarity,
    LiteralMatch literal, double literalBonus, long rows, List<Map<String, String>> exampleRows, String why) {
  public ValueMatch {
    exampleRows = List.copyOf(exampleRows);
  }

  ValueMatch withExampleRows(List<Map<String, String>> rowsFound) {
    return new ValueMatch(table, column, value, score, similarity, literal, literalBonus, rows, rowsFound, why);
  }
}
