/**
 * The SQL text helpers all lakerewrite modules share, once, in the lowest module: it sits below both
 * {@code retrieval} and {@code noise-udf}, which may not depend on each other, and weighs nothing they do not
 * already carry (Jackson and Commons Text).
 *
 * <ul>
 *   <li>{@link dev.lakerewrite.sql.Sql}: identifier and string-literal quoting for DuckDB (keywords, NUL,
 *       {@code null}).
 *   <li>{@link dev.lakerewrite.sql.SqlSpans}: where string literals, quoted identifiers, comments and
 *       dollar-quoted bodies end, for every hand-written scanner.
 *   <li>{@link dev.lakerewrite.sql.DidYouMean}: "did you mean" suggestions and their one message format.
 *   <li>{@link dev.lakerewrite.sql.DuckDbParser}: DuckDB's parser on a connection, SQL text to JSON syntax trees
 *       and back.
 *   <li>{@link dev.lakerewrite.sql.SqlParseException}: what DuckDB's parser refused, with its position.
 * </ul>
 */
@NullMarked
package dev.lakerewrite.sql;

import org.jspecify.annotations.NullMarked;
