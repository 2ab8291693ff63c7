package dev.lakerewrite.core.optimize;

import java.time.Duration;
import java.util.Objects;

/**
 * One step of an optimisation, for the trace. States follow QUITE's finite state machine: {@code REASONING}
 * (proposing), {@code VERIFICATION} (executable and equivalent), {@code DECISION} (timing, accept or iterate),
 * {@code TERMINATION}; {@code CONTEXT} covers the preparation (plan, block map, instances).
 *
 * @param at time since the optimisation started
 * @param state the state the step belongs to
 * @param event what happened ({@code proposed}, {@code verified}, {@code timed}, {@code llm-call}, ...)
 * @param message details
 */
public record OptimizationEvent(Duration at, String state, String event, String message) {
  public OptimizationEvent {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(message, "message");
  }
}
