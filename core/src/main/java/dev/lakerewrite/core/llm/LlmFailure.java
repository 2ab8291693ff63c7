package dev.lakerewrite.core.llm;

import dev.lakerewrite.core.LakeRewriteException;
import org.jspecify.annotations.Nullable;

/**
 * An LLM call that did not produce a usable answer, after retries where retrying made sense. The rewriting loop
 * records it as a failed step and carries on (or stops, for an exhausted budget); it never crashes on one.
 */
public final class LlmFailure extends LakeRewriteException {
  private static final long serialVersionUID = 1L;

  /** Why the call failed. */
  public enum Kind {
    /** A token, cost or time budget would be exceeded by calling again. */
    BUDGET_EXHAUSTED,
    /** The call took longer than the per-call timeout (also after retries). */
    TIMEOUT,
    /** The provider kept answering "rate limited" through every retry. */
    RATE_LIMITED,
    /** The provider kept failing with server errors through every retry. */
    SERVER_ERROR,
    /** A failure retrying cannot fix: authentication, a bad request, an unknown model. */
    REJECTED_BY_PROVIDER,
    /** The answer was empty, not JSON, or broke the contract, also after the repair round. */
    MALFORMED_ANSWER,
    /** The calling thread was interrupted. */
    INTERRUPTED
  }

  private final Kind kind;
  private final Role role;

  public LlmFailure(Kind kind, Role role, String message, @Nullable Throwable cause) {
    super(role + " call failed (" + kind + "): " + message, cause);
    this.kind = kind;
    this.role = role;
  }

  public Kind kind() {
    return kind;
  }

  public Role role() {
    return role;
  }
}
