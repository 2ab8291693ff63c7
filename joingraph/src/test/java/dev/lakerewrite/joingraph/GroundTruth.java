package dev.lakerewrite.joingraph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakerewrite.testing.SampleLake;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Scores a join graph against the sample's foreign keys: edge recall and precision, the rank of the referenced
 * table among the referencing table's neighbours, and the rank of the true key pair within the edge.
 */
final class GroundTruth {
  /** Per foreign key: is there an edge, where the partner ranks by Ω, where the true key pair ranks. */
  record KeyResult(ForeignKey key, boolean edge, int neighbourRank, int pairRank) {}

  record Report(int truthEdges, int graphEdges, int truePositives, double recall, double precision,
      double precisionAtTruth, double hitsAt1, double hitsAt3, double meanReciprocalRank, int pairRank1,
      int pairFound, int keysWithEdge, List<KeyResult> keys) {

    String summary() {
      return String.format(Locale.ROOT,
          "edges=%d truth=%d TP=%d recall=%.3f precision=%.3f P@|truth|=%.3f | neighbour hits@1=%.3f hits@3=%.3f "
              + "MRR=%.3f | true key pair rank 1: %d/%d, in top pairs: %d/%d",
          graphEdges, truthEdges, truePositives, recall, precision, precisionAtTruth, hitsAt1, hitsAt3,
          meanReciprocalRank, pairRank1, keysWithEdge, pairFound, keysWithEdge);
    }
  }

  /** One foreign key of an {@code info_full.json}: the ground truth, never given to the graph. */
  record ForeignKey(String database, String table, String column, String referencedTable, String referencedColumn) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private GroundTruth() {}

  /** The foreign keys of every database of the sample, tables given by lake name; self-references included. */
  static List<ForeignKey> foreignKeys() {
    Path databases = SampleLake.folder().resolve("databases");
    Map<String, String> names = new HashMap<>(); // "<database>/<file stem>" -> lake name
    SampleLake.tables(SampleLake.folder()).forEach((name, csv) -> names.put(
        csv.getParent().getParent().getFileName() + "/" + stem(csv.getFileName().toString()), name));
    List<ForeignKey> keys = new ArrayList<>();
    for (String database : new TreeSet<>(names.keySet().stream().map(k -> k.substring(0, k.indexOf('/'))).toList())) {
      JsonNode info;
      try {
        info = JSON.readTree(databases.resolve(database).resolve("info_full.json").toFile());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Map<String, String> labelToName = new HashMap<>();
      info.get("TABLES").fields().forEachRemaining(t -> labelToName.put(t.getKey(),
          names.get(database + "/" + stem(Path.of(t.getValue().get("FILEPATH").asText()).getFileName().toString()))));
      info.get("TABLES").fields().forEachRemaining(t -> {
        String table = labelToName.get(t.getKey());
        for (JsonNode fk : t.getValue().get("FOREIGN_KEYS")) {
          keys.add(new ForeignKey(database, table, fk.get("FOREIGN_KEY").get(1).asText(),
              labelToName.get(fk.get("REFERENCE_TABLE").asText()), "label"));
        }
      });
    }
    return keys;
  }

  private static String stem(String fileName) {
    return fileName.endsWith(".csv") ? fileName.substring(0, fileName.length() - 4) : fileName;
  }

  static String pairKey(String a, String b) {
    return a.compareTo(b) < 0 ? a + " — " + b : b + " — " + a;
  }

  static Report evaluate(JoinGraph graph, List<ForeignKey> keys) {
    List<ForeignKey> usable = keys.stream().filter(k -> !k.table().equals(k.referencedTable())).toList();
    Set<String> truth = new TreeSet<>();
    usable.forEach(k -> truth.add(pairKey(k.table(), k.referencedTable())));
    Set<String> edges = new TreeSet<>();
    graph.edges().forEach(e -> edges.add(pairKey(e.tableA(), e.tableB())));
    int tp = (int) truth.stream().filter(edges::contains).count();
    List<JoinEdge> byOmega = new ArrayList<>(graph.edges());
    byOmega.sort(Comparator.comparingDouble(JoinEdge::joinability).reversed());
    int topHits = 0;
    for (int i = 0; i < Math.min(truth.size(), byOmega.size()); i++) {
      if (truth.contains(pairKey(byOmega.get(i).tableA(), byOmega.get(i).tableB()))) {
        topHits++;
      }
    }
    List<KeyResult> results = new ArrayList<>();
    Map<String, Boolean> seen = new LinkedHashMap<>();
    double rr = 0;
    int hits1 = 0;
    int hits3 = 0;
    int rank1 = 0;
    int found = 0;
    int withEdge = 0;
    for (ForeignKey k : usable) {
      List<JoinEdge> neighbours = graph.neighbours(k.table());
      int neighbourRank = 0;
      for (int i = 0; i < neighbours.size(); i++) {
        if (neighbours.get(i).other(k.table()).equals(k.referencedTable())) {
          neighbourRank = i + 1;
          break;
        }
      }
      int pairRank = 0;
      var edge = graph.edge(k.table(), k.referencedTable());
      if (edge.isPresent()) {
        withEdge++;
        List<ColumnPair> pairs = edge.get().pairsFrom(k.table());
        for (int i = 0; i < pairs.size(); i++) {
          if (pairs.get(i).columnA().equals(k.column()) && pairs.get(i).columnB().equals(k.referencedColumn())) {
            pairRank = i + 1;
            break;
          }
        }
      }
      if (neighbourRank > 0) {
        rr += 1.0 / neighbourRank;
        hits1 += neighbourRank == 1 ? 1 : 0;
        hits3 += neighbourRank <= 3 ? 1 : 0;
      }
      rank1 += pairRank == 1 ? 1 : 0;
      found += pairRank > 0 ? 1 : 0;
      seen.put(k.table() + "." + k.column(), true);
      results.add(new KeyResult(k, edge.isPresent(), neighbourRank, pairRank));
    }
    int n = usable.size();
    return new Report(truth.size(), edges.size(), tp, (double) tp / truth.size(),
        edges.isEmpty() ? 0 : (double) tp / edges.size(), (double) topHits / truth.size(), (double) hits1 / n,
        (double) hits3 / n, rr / n, rank1, found, withEdge, results);
  }
}
