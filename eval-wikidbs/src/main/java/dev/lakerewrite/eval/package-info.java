/**
 * The evaluation harness (thesis ch. 7): pair files, runs of methods, ablations and models over a lake, the metrics,
 * and the reports.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link Ablation}: The ablations of thesis §7.4.2: the iterative rewriter with one capability switched off.
 *   <li>{@link CandidateSelection}: Whether the self-checker picked the best candidate.
 *   <li>{@link CellValues}: How the metrics read a cell "as a string".
 *   <li>{@link Difficulty}: How hard a pair is (thesis §7.1): its label in pair files is the lower-case name.
 *   <li>{@link DifficultyTag}: The seven kinds of wrong assumption a user query can make (thesis §7.1).
 *   <li>{@link EvalMethod}: The methods an evaluation compares (thesis §7.2): the iterative rewriter.
 *   <li>{@link EvalModel}: Who drives the agents of a run: the offline agents or a named chat model.
 *   <li>{@link Evaluation}: Runs pairs through rewriters and scores them (thesis §7.3).
 *   <li>{@link EvaluationResult}: What an evaluation produced: per variant, every pair's outcome and the summary.
 *   <li>{@link GoldMapping}: Where the tables and columns a user query assumes really are in the lake.
 *   <li>{@link LakeQueryRunner}: Runs queries through core's safe executor on a lake session.
 *   <li>{@link Lakes}: Opens a lake from a path whatever its layout: a WikiDBs folder.
 *   <li>{@link LoadedPairs}: What loading a pair file gives: the pairs that passed validation.
 *   <li>{@link MappingAccuracy}: The schema matcher's column-mapping accuracy against a pair's GoldMapping.
 *   <li>{@link MarkdownReport}: The human-readable report of a run (report.md), with the thesis's tables (§7.4).
 *   <li>{@link NoisyLakes}: The noisy copies of a lake that Noise pairs run on (thesis §7.1).
 *   <li>{@link PairFilter}: Which pairs of a file to run: by id, by tag (any of them), then the first limit.
 *   <li>{@link PairLoader}: Reads pair files, validates every pair.
 *   <li>{@link PairOutcome}: The run of one pair with one variant: what was predicted, how it scored.
 *   <li>{@link PairProblem}: Something wrong with a pair file, found while loading it.
 *   <li>{@link PairStatus}: How the run of one pair ended.
 *   <li>{@link PairWriter}: Writes pairs in the format PairLoader reads: queries as arrays of lines.
 *   <li>{@link PlainTable}: A query result as plain data: column names in result order and rows of Java values.
 *   <li>{@link ProgressBar}: A progress bar on a terminal stream (stderr): pairs done.
 *   <li>{@link ProgressListener}: Follows an evaluation as it runs.
 *   <li>{@link QueryResultPair}: One evaluation pair (thesis §7.1, figure 7.1).
 *   <li>{@link QueryRunException}: A query that did not run; the message is the engine's (or the executor's) error.
 *   <li>{@link QueryRunner}: Runs one SQL query on a lake and returns its result as a plain table.
 *   <li>{@link ReportCharts}: The PNG charts of a report, drawn with XChart (headless).
 *   <li>{@link ReportWriter}: Writes a run's reports into a folder: summary.json, report.md.
 *   <li>{@link ResultMetrics}: The evaluation metrics of thesis §7.3, on plain tables.
 *   <li>{@link ResultScore}: The scores of one predicted table against its gold table (thesis §7.3).
 *   <li>{@link RunInfo}: What the reports say about a run besides its outcomes: its settings.
 *   <li>{@link SqlText}: Lexical facts about SQL text that the harness needs without a parser.
 *   <li>{@link SuiteReport}: The per-lake report of the harness's suites (bin/lakerewrite eval --suite ...).
 *   <li>{@link SummaryJson}: The machine-readable forms of a run, for comparisons across runs: summary.json.
 *   <li>{@link TableDiscovery}: How one rewrite found the tables its pair requires (thesis §7.4.3, table 7.4).
 *   <li>{@link Variant}: One configuration an evaluation runs every pair with: a method, optionally an ablation.
 *   <li>{@link VariantSummary}: The figures of one variant over its pairs, as the thesis reports them (§7.4).
 * </ul>
 */
@NullMarked
package dev.lakerewrite.eval;

import org.jspecify.annotations.NullMarked;
