/**
 * The {@code lakerewrite} command line ({@code bin/lakerewrite}): index, rewrite, optimize, verify, eval,
 * train-matcher.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link LakeRewriteCli}: The lakerewrite command line (bin/lakerewrite).
 * </ul>
 */
@NullMarked
package dev.lakerewrite.eval.cli;

import org.jspecify.annotations.NullMarked;
