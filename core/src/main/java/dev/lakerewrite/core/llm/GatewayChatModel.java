package dev.lakerewrite.core.llm;

import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The model as the library uses it: any {@link ChatModel} wrapped with a per-call timeout, retries with backoff
 * for retryable failures, the budget check before every attempt, and usage metering through a
 * {@link ChatModelListener}. Capability modules receive this wrapper, so their calls obey the same limits.
 */
final class GatewayChatModel implements ChatModel {
  static final String STARTED = "lakerewrite.started";
  private static final ThreadLocal<Integer> LAST_ATTEMPTS = new ThreadLocal<>();
  private static final ExecutorService CALLS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "lakerewrite-llm-call");
    t.setDaemon(true);
    return t;
  });

  private final ChatModel delegate;
  private final Role role;
  private final String modelName;
  private final UsageMeter meter;
  private final LlmBudget budget;
  private final long deadlineNanos;
  private final RetryPolicy retry;
  private final Duration callTimeout;
  private final List<ChatModelListener> listeners;

  GatewayChatModel(ChatModel delegate, Role role, String modelName, UsageMeter meter, LlmBudget budget,
      long deadlineNanos, RetryPolicy retry, Duration callTimeout) {
    this.delegate = delegate;
    this.role = role;
    this.modelName = modelName;
    this.meter = meter;
    this.budget = budget;
    this.deadlineNanos = deadlineNanos;
    this.retry = retry;
    this.callTimeout = callTimeout;
    UsageMeter.Listener metering = new UsageMeter.Listener(meter, role, modelName);
    this.listeners = List.of(metering);
  }

  /** The attempts the last successful call on this thread took (read once by the metering listener). */
  static int takeAttempts() {
    Integer attempts = LAST_ATTEMPTS.get();
    LAST_ATTEMPTS.remove();
    return attempts == null ? 1 : attempts;
  }

  @Override
  public List<ChatModelListener> listeners() {
    return listeners;
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    String prompt = UsageMeter.render(request.messages());
    long start = System.nanoTime();
    int attempts = 0;
    while (true) {
      attempts++;
      checkBudget(prompt, attempts, start);
      long remainingNanos = deadlineNanos - System.nanoTime();
      long waitNanos = Math.min(callTimeout.toNanos(), Math.max(0, remainingNanos));
      Future<ChatResponse> future = CALLS.submit(() -> delegate.chat(request));
      LlmFailure.Kind kind;
      String message;
      Throwable cause = null;
      boolean retryable;
      try {
        ChatResponse response = future.get(waitNanos, TimeUnit.NANOSECONDS);
        if (response == null) {
          fail(LlmFailure.Kind.MALFORMED_ANSWER, "the model returned no response", null, attempts, start, prompt);
        }
        LAST_ATTEMPTS.set(attempts);
        return response;
      } catch (TimeoutException e) {
        future.cancel(true);
        kind = remainingNanos <= callTimeout.toNanos() ? LlmFailure.Kind.BUDGET_EXHAUSTED : LlmFailure.Kind.TIMEOUT;
        message = kind == LlmFailure.Kind.TIMEOUT
            ? "no answer within " + callTimeout.toMillis() + " ms"
            : "the wall-time budget of " + budget.maxWallTime() + " ran out while waiting for an answer";
        retryable = kind == LlmFailure.Kind.TIMEOUT;
      } catch (InterruptedException e) {
        future.cancel(true);
        Thread.currentThread().interrupt();
        fail(LlmFailure.Kind.INTERRUPTED, "interrupted while waiting for the model", e, attempts, start, prompt);
        throw new AssertionError("unreachable");
      } catch (ExecutionException e) {
        cause = e.getCause();
        kind = classify(cause);
        retryable = kind == LlmFailure.Kind.RATE_LIMITED || kind == LlmFailure.Kind.SERVER_ERROR
            || kind == LlmFailure.Kind.TIMEOUT;
        message = cause.getClass().getSimpleName() + ": " + cause.getMessage();
      }
      if (!retryable || attempts > retry.maxRetries()) {
        fail(kind, message + (attempts > 1 ? " (after " + attempts + " attempts)" : ""), cause, attempts, start,
            prompt);
      }
      meter.retried(role);
      sleepBeforeRetry(retry.backoff(attempts), attempts, start, prompt);
    }
  }

  private void checkBudget(String prompt, int attempts, long start) {
    String why = null;
    if (System.nanoTime() >= deadlineNanos) {
      why = "the wall-time budget of " + budget.maxWallTime() + " is used up";
    } else if (meter.costUsed() >= budget.maxCostUsd()) {
      why = String.format("the cost budget of $%.4f is used up ($%.4f spent)", budget.maxCostUsd(), meter.costUsed());
    } else {
      long used = meter.tokensUsed();
      long next = UsageMeter.estimateTokens(prompt);
      if (used + next > budget.maxTokens()) {
        why = "the token budget of " + budget.maxTokens() + " would be exceeded (" + used + " used, about " + next
            + " more for this prompt)";
      }
    }
    if (why != null) {
      fail(LlmFailure.Kind.BUDGET_EXHAUSTED, why, null, attempts, start, prompt);
    }
  }

  private void sleepBeforeRetry(Duration backoff, int attempts, long start, String prompt) {
    long sleepNanos = Math.min(backoff.toNanos(), Math.max(0, deadlineNanos - System.nanoTime()));
    try {
      TimeUnit.NANOSECONDS.sleep(sleepNanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail(LlmFailure.Kind.INTERRUPTED, "interrupted during backoff", e, attempts, start, prompt);
    }
  }

  private void fail(LlmFailure.Kind kind, String message, @Nullable Throwable cause, int attempts, long start,
      String prompt) {
    meter.failed(role, modelName, attempts, Duration.ofNanos(System.nanoTime() - start), prompt, kind);
    throw new LlmFailure(kind, role, message, cause);
  }

  /** Maps provider exceptions (LangChain4j's typed ones, HTTP status codes, I/O) to failure kinds. */
  static LlmFailure.Kind classify(Throwable t) {
    if (t instanceof LlmFailure f) {
      return f.kind();
    }
    if (t instanceof RateLimitException) {
      return LlmFailure.Kind.RATE_LIMITED;
    }
    if (t instanceof dev.langchain4j.exception.TimeoutException || t instanceof java.net.SocketTimeoutException
        || t instanceof java.net.http.HttpTimeoutException) {
      return LlmFailure.Kind.TIMEOUT;
    }
    if (t instanceof InternalServerException) {
      return LlmFailure.Kind.SERVER_ERROR;
    }
    if (t instanceof AuthenticationException || t instanceof InvalidRequestException
        || t instanceof ModelNotFoundException || t instanceof NonRetriableException) {
      return LlmFailure.Kind.REJECTED_BY_PROVIDER;
    }
    if (t instanceof HttpException h) {
      int code = h.statusCode();
      return code == 429 ? LlmFailure.Kind.RATE_LIMITED
          : code == 408 ? LlmFailure.Kind.TIMEOUT
          : code >= 500 ? LlmFailure.Kind.SERVER_ERROR
          : LlmFailure.Kind.REJECTED_BY_PROVIDER;
    }
    if (t instanceof RetriableException || t instanceof IOException || t instanceof UncheckedIOException) {
      return LlmFailure.Kind.SERVER_ERROR;
    }
    if (t != null && t.getCause() != null && t.getCause() != t) {
      return classify(t.getCause());
    }
    return LlmFailure.Kind.REJECTED_BY_PROVIDER;
  }
}
