package dev.lakerewrite.core;

/** What kind of failure a query met; the rewriting loop reacts differently to each. */
public enum ErrorKind {
  /** The text is not valid SQL (DuckDB's parser rejected it). */
  PARSE,
  /** The SQL parses but names something that does not exist or does not fit (tables, columns, functions, types). */
  BINDER,
  /** The query started and failed while running (conversion errors, out of memory, division by zero...). */
  RUNTIME,
  /** The query ran past its time limit and was cancelled. */
  TIMEOUT,
  /** The executor refused to run it: not a single read-only SELECT, or it uses something the sandbox forbids. */
  REJECTED
}
