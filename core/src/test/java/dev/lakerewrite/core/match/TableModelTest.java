package dev.lakerewrite.core.match;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.TableProfile;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The learned table matcher: its features, the shipped model, fitting and cross-validation. */
class TableModelTest {

  /** A lake of two tables whose names embeddings cannot read (similarity only for equal names). */
  private static final MatchLake LAKE = new MatchLake() {
    final Map<String, List<String>> columns = Map.of(
        "zo_prsn_in_wrks", List.of("LBL", "VRBL"),
        "zo_fctn_anmls", List.of("LBL", "DSCR", "NWDY_IN_WRK"));

    @Override
    public List<String> tableNames() {
      return List.copyOf(columns.keySet());
    }

    @Override
    public CatalogTable table(String name) {
      return new CatalogTable(name, columns.get(name).stream().map(c -> new CatalogTable.Column(c, "VARCHAR"))
          .toList(), 10, Optional.empty());
    }

    @Override
    public TableProfile profile(String name) {
      return new TableProfile(name, 10, List.of());
    }

    @Override
    public double nameSimilarity(String a, String b) {
      return a.equalsIgnoreCase(b) ? 1 : 0;
    }

    @Override
    public boolean valueExists(String table, String column, String value) {
      return false;
    }
  };

  @Test
  void anAbbreviatedTableNameOutweighsOneWellNamedColumnElsewhere() {
    // present_in_work(description): its own table abbreviates its name but calls the column VRBL; the creatures'
    // table has a DSCR column the column matcher is sure of.
    TableFeatures.ColumnScorer scorer = (c, lc) -> lc.equals("DSCR") ? 0.95 : lc.equals("VRBL") ? 0.2 : 0.05;
    double[] own = TableFeatures.compute(LAKE, "present_in_work", List.of("description"), "zo_prsn_in_wrks", 0.28,
        scorer);
    double[] other = TableFeatures.compute(LAKE, "present_in_work", List.of("description"), "zo_fctn_anmls", 0.29,
        scorer);
    assertThat(own[TableFeatures.NAMES.indexOf("about")]).isGreaterThan(0.5);
    assertThat(other[TableFeatures.NAMES.indexOf("about")]).isZero();
    assertThat(other[TableFeatures.NAMES.indexOf("columns.mean_evidence")]).isEqualTo(0.95);
    TableModel m = TableModel.standard();
    assertThat(m.probability(own)).isGreaterThan(m.probability(other));
  }

  @Test
  void aTableWithNeitherNameNorColumnsIsNoMatch() {
    double[] nothing = TableFeatures.compute(LAKE, "licence", List.of("issuer"), "zo_fctn_anmls", 0, (c, lc) -> 0);
    assertThat(TableModel.standard().probability(nothing)).isLessThan(0.1);
    assertThatThrownBy(() -> TableModel.standard().probability(new double[3]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected " + TableFeatures.NAMES.size());
  }

  @Test
  void joinKeysAndBareIdsDoNotDescribeATable() {
    AssumedSchema schema = AssumedSchema.of(new Trees(SqlParser.standalone()).statement(
        "SELECT g.name, COUNT(*) FROM creatures c JOIN genres g ON c.genre_id = g.id WHERE c.habitat = 'sea' "
            + "GROUP BY g.name"));
    assertThat(TableFeatures.describingColumns(schema.table("creatures").orElseThrow())).containsExactly("habitat");
    assertThat(TableFeatures.describingColumns(schema.table("genres").orElseThrow())).containsExactly("name");
  }

  private static double[] features(double tokens, double columns) {
    double[] f = new double[TableFeatures.NAMES.size()];
    f[TableFeatures.NAMES.indexOf("about")] = tokens;
    f[TableFeatures.NAMES.indexOf("columns.mean_evidence")] = columns;
    return f;
  }

  @Test
  void fittingLearnsWhichEvidenceSeparatesTablesAndSavesAndReadsTheModel() throws Exception {
    Random random = new Random(11);
    List<MatcherTraining.TableExample> examples = new ArrayList<>();
    for (int group = 0; group < 120; group++) {
      int gold = random.nextInt(6);
      for (int t = 0; t < 6; t++) {
        boolean match = t == gold;
        // The name separates; the column evidence is noise.
        double[] f = features(match ? 0.6 + 0.4 * random.nextDouble() : 0.3 * random.nextDouble(),
            random.nextDouble());
        examples.add(new MatcherTraining.TableExample("lake-" + (group % 3) + "|p" + group + "|t", "t" + t,
            match ? 1 : 0, f));
      }
    }
    TableModel m = MatcherTraining.fitTables(examples);
    assertThat(m.weights().get("about")).isGreaterThan(Math.abs(m.weights().get("columns.mean_evidence")));
    StringWriter w = new StringWriter();
    m.save(w);
    TableModel read = TableModel.read(new StringReader(w.toString()));
    assertThat(read.probability(features(0.7, 0.2))).isEqualTo(m.probability(features(0.7, 0.2)));

    double[] cv = MatcherTraining.crossValidateTables(examples);
    assertThat(cv[0]).isEqualTo(120);
    assertThat(cv[1]).isGreaterThan(0.95);
    // Ranking by the column evidence alone is a guess among six.
    assertThat(cv[2]).isLessThan(0.5);
  }
}
