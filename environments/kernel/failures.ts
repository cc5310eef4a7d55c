/**
 * Why an agent could not act when the reason is not its answer (DESIGN.md § Failures are not answers).
 * - `infrastructure`: a timeout, a 5xx or a rate limit after every retry, a dropped connection. The
 *   trial is missing data: stored as failed with the error, kept out of every estimate and every
 *   non-response rate, and run again by the next identical command.
 * - `configuration`: a rejected key, an unknown model, an endpoint that does not answer. No trial can
 *   succeed: the run stops, says what to fix, and the same command resumes once it is fixed.
 * An agent throws an `AgentFailure`; anything else it throws is the agent's own error, which the
 * environment records as its answer (a non-response with the error).
 */
export type FailureKind = "infrastructure" | "configuration";

export class AgentFailure extends Error {
  override readonly name = "AgentFailure";
  constructor(
    readonly kind: FailureKind,
    message: string,
    /** What to do about it (for configuration failures: what to fix). */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * The failure an error stands for, or null for an ordinary error. Errors that crossed a thread
 * boundary arrive as plain objects, so the shape is read, not the class.
 */
export function failureOf(err: unknown): AgentFailure | null {
  if (err instanceof AgentFailure) return err;
  const e = err as { kind?: unknown; message?: unknown; hint?: unknown; name?: unknown } | null;
  if (
    e &&
    typeof e === "object" &&
    e.name === "AgentFailure" &&
    (e.kind === "infrastructure" || e.kind === "configuration") &&
    typeof e.message === "string"
  )
    return new AgentFailure(e.kind, e.message, typeof e.hint === "string" ? e.hint : undefined);
  return null;
}

/** A failure as it is stored with a failed trial and shown in summaries. */
export interface FailureRecord {
  kind: FailureKind;
  message: string;
  hint?: string;
}

/** The record of a failure, without an absent hint. */
export function encodeFailure(f: AgentFailure): FailureRecord {
  return { kind: f.kind, message: f.message, ...(f.hint ? { hint: f.hint } : {}) };
}
