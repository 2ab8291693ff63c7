package dev.lakerewrite.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared test fixture ({@link dev.lakerewrite.testing.Sandbox}, which the capability modules' tests run on)
 * leaves DuckDB configured exactly as core's own sandbox does: every setting DuckDB reports is the same.
 */
class SandboxFixtureAgreementTest {

  @Test
  void theFixturesSandboxIsCoresSandbox(@TempDir Path temp) throws Exception {
    Map<String, String> core;
    Map<String, String> fixture;
    try (Connection c = isolatedInMemory()) {
      Sandbox.apply(c, temp, dev.lakerewrite.testing.Sandbox.MEMORY_LIMIT, dev.lakerewrite.testing.Sandbox.THREADS);
      core = settings(c);
    }
    try (Connection c = isolatedInMemory()) {
      dev.lakerewrite.testing.Sandbox.apply(c, temp);
      fixture = settings(c);
    }
    assertThat(core).containsEntry("enable_external_access", "false").containsEntry("lock_configuration", "true")
        .containsEntry("autoload_known_extensions", "false");
    assertThat(fixture).isEqualTo(core);
  }

  private static Connection isolatedInMemory() throws Exception {
    Properties props = new Properties();
    props.setProperty("jdbc_instance_cache", "false");
    return DriverManager.getConnection("jdbc:duckdb:", props);
  }

  private static Map<String, String> settings(Connection c) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT name, value FROM duckdb_settings()")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2));
      }
    }
    return out;
  }
}
