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
 */
package dev.lakerewrite.noiseudf;
