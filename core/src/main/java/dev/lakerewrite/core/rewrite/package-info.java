/**
 * The rewriting loop (thesis ch. 3–6): a rewriter and a self-checker agent (LLM or offline) over data-lake actions,
 * with a scratchpad, a history and a trace; the baselines of §7.2. Entry point: {@code dev.lakerewrite.core.Rewriter}.
 *
 * <p>The agents, the loop and the baselines are package-private. Public are the types users see in results and
 * settings, {@link LakeTools} and {@link Evidence} (implemented by {@code dev.lakerewrite.core} over the capability
 * modules), and {@link RewriteRun}, the wiring {@code LakeRewriter} calls.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link ActionType}: The kinds of data-lake actions (thesis §3.3); ablations switch them off.
 *   <li>{@link Evidence}: The typed evidence data-lake actions put into the scratchpad (LakeTools' results).
 *   <li>{@link LakeTools}: The lake as the loop uses it.
 *   <li>{@link RewriteCandidate}: One rewritten query in the rewrite history.
 *   <li>{@link RewriteEvent}: One step of a rewrite, as data: what happened, in which iteration and phase, when.
 *   <li>{@link RewriteRun}: The wiring of one rewrite (agents, loop, baselines); called by LakeRewriter.
 *   <li>{@link RewriteTrace}: Every step of one rewrite, in order (principle 4: everything is observable).
 *   <li>{@link RewriterConfig}: The loop's settings, built by Rewriter.Builder and read from LakeRewriter.config().
 *   <li>{@link Scratchpad}: The shared memory of one rewrite (thesis §4.2): table previews, join previews.
 *   <li>{@link StopReason}: Why the rewriting loop stopped.
 * </ul>
 */
@NullMarked
package dev.lakerewrite.core.rewrite;

import org.jspecify.annotations.NullMarked;
