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
    /**
     * What failed, in a few words, for the lines that count failed trials by cause ("the MCP session
     * closed mid-episode", "the process exited 3"); the message says it in full. Absent: a model call
     * (the failures that have no label of their own, see `failureLabel`).
     */
    readonly label?: string,
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
  const e = err as {
    kind?: unknown;
    message?: unknown;
    hint?: unknown;
    label?: unknown;
    name?: unknown;
  } | null;
  if (
    e &&
    typeof e === "object" &&
    e.name === "AgentFailure" &&
    (e.kind === "infrastructure" || e.kind === "configuration") &&
    typeof e.message === "string"
  )
    return new AgentFailure(
      e.kind,
      e.message,
      typeof e.hint === "string" ? e.hint : undefined,
      typeof e.label === "string" ? e.label : undefined,
    );
  return null;
}

/** A failure as it is stored with a failed trial and shown in summaries. */
export interface FailureRecord {
  kind: FailureKind;
  message: string;
  hint?: string;
  /** What failed, in a few words (`AgentFailure.label`). */
  label?: string;
}

/** The record of a failure, without an absent hint or label. */
export function encodeFailure(f: AgentFailure): FailureRecord {
  return {
    kind: f.kind,
    message: f.message,
    ...(f.hint ? { hint: f.hint } : {}),
    ...(f.label ? { label: f.label } : {}),
  };
}

/**
 * What failed, in a few words. Failures without a label of their own are the model calls' (every
 * other kind of agent labels its failures), and so are records stored before labels existed, but
 * for those of outside agents, whose message says so.
 */
export function failureLabel(f: FailureRecord): string {
  if (f.label) return f.label;
  if (f.message.startsWith("outside agent:")) return "the outside agent went away";
  return "a model call failed after every retry (timeouts, 5xx, rate limits)";
}

/** Failed trials counted by agent and by what failed, most first. */
export interface FailureCause {
  agent: string;
  label: string;
  trials: number;
}

export function failureCauses(failed: readonly { agent: string; failure: FailureRecord }[]): FailureCause[] {
  const counts = new Map<string, FailureCause>();
  for (const f of failed) {
    const label = failureLabel(f.failure);
    const key = `${f.agent}\u0000${label}`;
    const c = counts.get(key);
    if (c) c.trials++;
    else counts.set(key, { agent: f.agent, label, trials: 1 });
  }
  return [...counts.values()].sort(
    (a, b) => a.agent.localeCompare(b.agent) || b.trials - a.trials || a.label.localeCompare(b.label),
  );
}

/**
 * The words that open the non-answer of an outside agent that left the same trial without acting,
 * time after time (`bazaar serve --max-abandons`): the summaries count the trials whose agent error
 * holds them.
 */
export const LEFT_WITHOUT_ACTING = "left without acting";

/** Sessions in a row that may leave a trial without acting before that is the agent's non-answer. */
export const DEFAULT_MAX_ABANDONS = 3;
