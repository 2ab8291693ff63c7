package dev.lakerewrite.noiseudf;

import dev.lakerewrite.testing.SampleLake;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.duckdb.DuckDBConnection;

/**
 * The WikiDBs sample as this module receives it (the shared {@link SampleLake}, sandboxed), with the cleaning
 * functions registered; one connection per test JVM, shared read-only (duplicate it per test).
 */
final class SharedLake {

  private static DuckDBConnection connection;

  private SharedLake() {}

  static synchronized DuckDBConnection connection() throws Exception {
    if (connection == null) {
      connection = SampleLake.open();
      CleaningFunctions.register(connection);
    }
    return connection;
  }

  static List<String> tables() {
    return SampleLake.tableNames();
  }

  /** This module's target folder, whether run by surefire (cwd = module) or exec:java (cwd = checkout). */
  static Path moduleTarget() {
    Path module = Files.isRegularFile(Path.of("noise-udf", "pom.xml")) ? Path.of("noise-udf") : Path.of("");
    return module.resolve("target");
  }

  /** All rows of a CSV (header first), read with Jackson CSV. */
  static List<String[]> readCsv(Path file) throws IOException {
    com.fasterxml.jackson.dataformat.csv.CsvMapper mapper = new com.fasterxml.jackson.dataformat.csv.CsvMapper();
    mapper.enable(com.fasterxml.jackson.dataformat.csv.CsvParser.Feature.WRAP_AS_ARRAY);
    List<String[]> rows = new ArrayList<>();
    try (com.fasterxml.jackson.databind.MappingIterator<String[]> it =
        mapper.readerFor(String[].class).readValues(file.toFile())) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }
}
