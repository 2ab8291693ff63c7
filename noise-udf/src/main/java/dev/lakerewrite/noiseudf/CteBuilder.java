package dev.lakerewrite.noiseudf;

import java.sql.Connection;

/**
 * BUILD_CTE: builds a cleaned version of a base table as a CTE (thesis §3.3 and ch. 6). Two implementations share
 * this contract and the result shape: {@link LlmCteBuilder} (a separate LLM call writes narrowly scoped macros and
 * one CTE, which {@link MacroValidator} vets) and {@link OfflineCteBuilder} (detection chooses vetted functions).
 *
 * <p>Implementations never throw for bad input from an agent or a model: unknown tables or columns, malformed or
 * hostile answers and SQL errors all come back as a {@link CteBuildResult} with a {@link CteBuildFailure}. They
 * never modify the lake; generated macros are registered as TEMP macros on {@code session} only. The vetted
 * functions must be registered on the session's database ({@link CleaningFunctions#register}).
 */
public interface CteBuilder {

  /**
   * Builds the CTE for {@code request} on {@code session} (a sandboxed connection of the caller's session).
   */
  CteBuildResult build(Connection session, CteRequest request);
}
