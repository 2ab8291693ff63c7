package dev.lakerewrite.core.reliability;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.TestLakes;

/**
 * Issue 15: every hostile query of {@link HostileSqlTest} again, on the sample queried in place (views over its CSV
 * files, the sandbox letting DuckDB read exactly those files); afterwards the lake's files hash the same.
 */
class InPlaceHostileSqlTest extends HostileSqlTest {
  @Override
  DataLake lake() {
    return TestLakes.sampleInPlace();
  }
}
