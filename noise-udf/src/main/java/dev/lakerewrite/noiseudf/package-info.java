/**
 * Noise handling for lakerewrite (thesis ch. 6; §3.3, §4.1, §4.2 for BUILD_CTE): detection, vetted cleaning
 * functions registered in DuckDB as Java UDFs, validated LLM-written cleaning macros, BUILD_CTE (LLM and
 * offline), and a seeded noise injector for benchmarks. Works on a sandboxed {@link java.sql.Connection} and a
 * LangChain4j {@code ChatModel}; depends on no other lakerewrite module.
 *
 * <p>Entry points:
 * <ul>
 *   <li>{@link dev.lakerewrite.noiseudf.CleaningFunctions#register} once per database instance (idempotent);
 *       {@link dev.lakerewrite.noiseudf.CleaningFunctions#catalogue()} and {@code promptCatalogue()} for prompts;
 *       {@link dev.lakerewrite.noiseudf.Cleaners} for the same functions in Java (e.g. to canonicalise a literal).
 *   <li>{@link dev.lakerewrite.noiseudf.NoiseDetector}: per-column evidence
 *       ({@link dev.lakerewrite.noiseudf.NoiseFinding}), and spelling variants across columns.
 *   <li>{@link dev.lakerewrite.noiseudf.CteBuilder} with {@link dev.lakerewrite.noiseudf.LlmCteBuilder} and
 *       {@link dev.lakerewrite.noiseudf.OfflineCteBuilder}: BUILD_CTE(table, columns, goal) →
 *       {@link dev.lakerewrite.noiseudf.CteBuildResult} for the scratchpad, never an exception for what an agent
 *       or a model did.
 *   <li>{@link dev.lakerewrite.noiseudf.MacroValidator}: the only way LLM-written SQL becomes a macro.
 *   <li>{@link dev.lakerewrite.noiseudf.NoiseInjector}: a noisy copy of a lake plus a record of every change.
 * </ul>
 *
 * <p>The lake is never modified: cleaned data lives in CTEs; generated macros are TEMP macros of one connection.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link CleanedColumn}: How the CTE cleans one column.
 *   <li>{@link Cleaners}: The vetted cleaning functions as plain, pure Java methods.
 *   <li>{@link CleaningFunctions}: The catalogue of vetted cleaning functions, registered as DuckDB Java scalar UDFs.
 *   <li>{@link ColumnSample}: The distinct non-null values of one column with their counts (most frequent first).
 *   <li>{@link CteBuildFailure}: Why BUILD_CTE produced no CTE.
 *   <li>{@link CteBuildResult}: What BUILD_CTE returns, for the scratchpad.
 *   <li>{@link CteBuilder}: BUILD_CTE: a cleaned version of a base table as a CTE, with its UDFs and a preview.
 *   <li>{@link CteRequest}: BUILD_CTE(base_table, columns, goal) as the self-checker issues it (thesis §3.3, §4.1).
 *   <li>{@link FunctionSpec}: One vetted cleaning function as prompts and the scratchpad show it.
 *   <li>{@link GeneratedUdf}: A cleaning UDF as an LLM proposes it: a DuckDB scalar macro name(parameters) AS body.
 *   <li>{@link LlmCteBuilder}: BUILD_CTE with an LLM (thesis §6.2).
 *   <li>{@link MacroValidator}: The gate between LLM-written cleaning code and the engine.
 *   <li>{@link NoiseDetector}: Noise detection over column samples (thesis §6.1).
 *   <li>{@link NoiseFinding}: Evidence of one kind of noise in one column.
 *   <li>{@link NoiseInjector}: A seeded noise injector for benchmarks.
 *   <li>{@link NoiseKind}: The kinds of cell noise the thesis names.
 *   <li>{@link OfflineCteBuilder}: BUILD_CTE without an LLM (DESIGN principle 1).
 *   <li>{@link PreviewTable}: A few rows of a result, as strings (NULL as null), for the scratchpad.
 *   <li>{@link Rejection}: Why a generated UDF, a CTE or an answer was not used.
 *   <li>{@link UdfInfo}: UDF metadata for the scratchpad.
 *   <li>{@link ValueCount}: A distinct cell value and how many rows hold it.
 * </ul>
 */
@NullMarked
package dev.lakerewrite.noiseudf;

import org.jspecify.annotations.NullMarked;
