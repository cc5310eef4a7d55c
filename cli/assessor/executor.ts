/**
 * The assessor's A2A executor (the SDK's `AgentExecutor`): one task per audit. A message arrives,
 * its request is read and checked at once (request.ts, options.ts) — a request `bazaar run` would
 * refuse fails the task with the CLI's words before it waits for anything — then the audit waits its
 * turn (queue.ts), runs (audit.ts), and the task ends:
 *
 * - `working` status updates while it waits and runs: its place in line, then the trials stored (with
 *   the numbers as metadata, `bazaar/progress`) and what the run says on the way;
 * - an artifact `audit`: the headline as text, and as data the run's `--json` document and
 *   `bazaar analyze --json`'s for the same run;
 * - `completed` when every trial asked for is stored; `failed` when some failed (missing data: the
 *   artifact still comes, saying so, and the same request plays them), when the participant's card
 *   cannot be used or the run stops on its configuration (the reason), or when the assessor stops
 *   mid-audit; `canceled` when the client cancels; `rejected` when the line of waiting audits is full.
 */
import { randomUUID } from "node:crypto";
import { type Artifact, type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { UserError } from "../../environments/kernel/errors.ts";
import type { FailureCause } from "../../environments/kernel/failures.ts";
import type { RunProgress } from "../../environments/runner/execute.ts";
import { causeLines } from "../actions/failure-lines.ts";
import { type AuditOutcome, type AuditSettings, runAudit } from "./audit.ts";
import { type CheckedAudit, checkAudit } from "./options.ts";
import { type AuditQueue, STOPPING, type Turn } from "./queue.ts";
import { readAuditRequest } from "./request.ts";

/** The least time between two progress updates of one audit (the last one always goes). */
const PROGRESS_EVERY_MS = 1000;

/** What the executor tells the assessor's operator (stderr lines). */
export type Log = (line: string) => void;

function textPart(text: string) {
  return {
    content: { $case: "text" as const, value: text },
    metadata: undefined,
    filename: "",
    mediaType: "text/plain",
  };
}

function agentMessage(text: string, taskId: string, contextId: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A UserError as the CLI says it: the message, then what to do. */
function said(err: UserError): string {
  return err.hint ? `${err.message}\n${err.hint}` : err.message;
}

const n = (x: number) => x.toLocaleString("en-US");

function progressLine(p: RunProgress): string {
  const extra = [
    p.nonResponsesNow > 0 ? `${n(p.nonResponsesNow)} non-responses` : "",
    p.failedNow > 0 ? `${n(p.failedNow)} failed` : "",
  ].filter(Boolean);
  return `${n(p.stored)} of ${n(p.target)} trials stored (${n(p.ranNow)} this audit)${extra.length > 0 ? `; ${extra.join(", ")}` : ""}`;
}

/** One task's side of the bus: its status updates and its artifact. */
class TaskEvents {
  constructor(
    private readonly bus: ExecutionEventBus,
    readonly taskId: string,
    readonly contextId: string,
  ) {}

  status(state: TaskState, text?: string, metadata?: Record<string, unknown>): void {
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        status: {
          state,
          message: text === undefined ? undefined : agentMessage(text, this.taskId, this.contextId),
          timestamp: new Date().toISOString(),
        },
        metadata,
      }),
    );
  }

  artifact(artifact: Artifact): void {
    this.bus.publish(
      AgentEvent.artifactUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        artifact,
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
  }
}

/** The artifact of an audit: the headline as text, the two JSON documents as data. */
function artifactOf(audit: CheckedAudit, o: AuditOutcome): Artifact {
  const run = o.run as { stored?: number; total?: number; ranNow?: number; failed?: number; store?: string };
  const lines = [
    `audit of ${o.agent ?? audit.request.participant} (${audit.request.participant}) as the ${audit.role} of ${audit.envCli.name}: run ${o.runId}, ${n(run.stored ?? 0)} of ${n(run.total ?? 0)} trials stored (${n(run.ranNow ?? 0)} this audit)${(run.failed ?? 0) > 0 ? `, ${n(run.failed ?? 0)} failed` : ""}`,
    ...o.headline,
    ...(o.analysisNote ? [o.analysisNote] : []),
    `store: ${run.store ?? ""} (bazaar analyze ${o.runId} for every estimate)`,
  ];
  return {
    artifactId: randomUUID(),
    name: "audit",
    description: `bazaar's audit of ${audit.request.participant} on ${audit.envCli.name}`,
    parts: [
      textPart(lines.join("\n")),
      {
        content: {
          $case: "data",
          value: {
            environment: audit.envCli.name,
            role: audit.role,
            participant: audit.request.participant,
            agent: o.agent,
            runId: o.runId,
            complete: o.complete,
            command: audit.command,
            run: o.run,
            analysis: o.analysis,
          },
        },
        metadata: undefined,
        filename: "",
        mediaType: "application/json",
      },
    ],
    metadata: undefined,
    extensions: [],
  };
}

export class AssessorExecutor implements AgentExecutor {
  /** Audits in line or running, by task: a follow-up message to one waits for its end. */
  private readonly ends = new Map<string, Promise<void>>();

  constructor(
    private readonly queue: AuditQueue,
    private readonly settings: AuditSettings,
    private readonly log: Log,
  ) {}

  cancelTask = async (taskId: string, _bus: ExecutionEventBus): Promise<void> => {
    // The audit's own flow publishes `canceled` on its bus once its run has stopped.
    if (this.queue.cancel(taskId)) await this.ends.get(taskId);
  };

  async execute(rc: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = rc;
    const events = new TaskEvents(bus, taskId, contextId);
    if (rc.task) {
      // A message to an audit under way: it takes none, but the sender follows it to its end.
      bus.publish(AgentEvent.task(rc.task));
      events.status(
        TaskState.TASK_STATE_WORKING,
        "this audit is under way and takes no further messages; its updates follow",
      );
      await this.ends.get(taskId);
      return;
    }
    const task: Task = {
      id: taskId,
      contextId,
      status: {
        state: TaskState.TASK_STATE_SUBMITTED,
        message: undefined,
        timestamp: new Date().toISOString(),
      },
      artifacts: [],
      history: [rc.userMessage],
      metadata: undefined,
    };
    bus.publish(AgentEvent.task(task));
    let done!: () => void;
    this.ends.set(
      taskId,
      new Promise((resolve) => {
        done = resolve;
      }),
    );
    try {
      await this.audit(events, rc);
    } finally {
      this.ends.delete(taskId);
      done();
      bus.finished();
    }
  }

  private async audit(events: TaskEvents, rc: RequestContext): Promise<void> {
    const id = events.taskId.slice(0, 8);
    let audit: CheckedAudit;
    try {
      audit = await checkAudit(readAuditRequest(rc.userMessage.parts));
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      this.log(`audit ${id}: refused: ${err.message}`);
      return events.status(TaskState.TASK_STATE_FAILED, said(err));
    }
    const turn = this.queue.enter(events.taskId);
    if (!turn) {
      this.log(`audit ${id}: rejected: the line of waiting audits is full`);
      return events.status(
        TaskState.TASK_STATE_REJECTED,
        "the assessor is busy: its line of waiting audits is full; send the request again later",
      );
    }
    try {
      await this.inTurn(events, audit, turn);
    } finally {
      this.queue.leave(turn);
    }
  }

  private async inTurn(events: TaskEvents, audit: CheckedAudit, turn: Turn): Promise<void> {
    const id = events.taskId.slice(0, 8);
    const what = `${audit.envCli.name} as the ${audit.role}, a2a:${audit.request.participant}`;
    const ahead = this.queue.ahead(turn);
    if (ahead > 0) {
      events.status(TaskState.TASK_STATE_WORKING, `queued: ${ahead} audit${ahead === 1 ? "" : "s"} ahead`);
      this.log(`audit ${id}: queued (${ahead} ahead): ${what}`);
    }
    if (!(await turn.ready)) {
      if (turn.controller.signal.reason === STOPPING) {
        this.log(`audit ${id}: dropped from the line: ${STOPPING}`);
        return events.status(
          TaskState.TASK_STATE_FAILED,
          `${STOPPING}: the audit did not start; send it again`,
        );
      }
      this.log(`audit ${id}: canceled while queued`);
      return events.status(TaskState.TASK_STATE_CANCELED, "canceled before it started");
    }
    events.status(TaskState.TASK_STATE_WORKING, `auditing: ${audit.command}`);
    this.log(`audit ${id}: started: ${what}`);
    let last = 0;
    let pending: RunProgress | null = null;
    const flush = () => {
      if (!pending) return;
      const p = pending;
      pending = null;
      last = Date.now();
      events.status(TaskState.TASK_STATE_WORKING, progressLine(p), {
        "bazaar/progress": {
          runId: p.runId,
          stored: p.stored,
          target: p.target,
          ranNow: p.ranNow,
          nonResponses: p.nonResponsesNow,
          failed: p.failedNow,
        },
      });
    };
    let outcome: AuditOutcome;
    try {
      outcome = await runAudit(audit, this.settings, {
        signal: turn.controller.signal,
        onProgress: (p) => {
          pending = p;
          if (Date.now() - last >= PROGRESS_EVERY_MS) flush();
        },
        onNote: (line) => events.status(TaskState.TASK_STATE_WORKING, line),
      });
    } catch (err) {
      if (err instanceof UserError) {
        this.log(`audit ${id}: failed: ${err.message}`);
        return events.status(TaskState.TASK_STATE_FAILED, said(err));
      }
      const why = err instanceof Error ? err.message : String(err);
      this.log(`audit ${id}: unexpected failure: ${err instanceof Error ? (err.stack ?? why) : why}`);
      return events.status(TaskState.TASK_STATE_FAILED, `the assessor failed unexpectedly: ${why}`);
    }
    flush();
    if (outcome.interrupted) {
      // Stopped by its client (cancel), or by the assessor stopping (a signal, or the server closed).
      const canceled = turn.controller.signal.aborted && turn.controller.signal.reason !== STOPPING;
      this.log(
        `audit ${id}: ${canceled ? "canceled" : "interrupted (the assessor is stopping)"}: run ${outcome.runId}`,
      );
      const kept = `what is stored stays: the same request resumes run ${outcome.runId}`;
      return canceled
        ? events.status(TaskState.TASK_STATE_CANCELED, `canceled; ${kept}`)
        : events.status(TaskState.TASK_STATE_FAILED, `the assessor stopped mid-audit; ${kept}`);
    }
    events.artifact(artifactOf(audit, outcome));
    if (outcome.complete) {
      this.log(`audit ${id}: completed: run ${outcome.runId}`);
      return events.status(
        TaskState.TASK_STATE_COMPLETED,
        [`run ${outcome.runId}`, ...outcome.headline].join("\n"),
      );
    }
    const run = outcome.run as { failed?: number; failures?: FailureCause[] };
    this.log(`audit ${id}: incomplete: run ${outcome.runId}, ${run.failed ?? 0} failed trials`);
    return events.status(
      TaskState.TASK_STATE_FAILED,
      [
        `${n(run.failed ?? 0)} trial${run.failed === 1 ? "" : "s"} of run ${outcome.runId} failed — missing data, in no estimate of the artifact; what failed:`,
        ...causeLines(run.failures ?? []),
        "send the same request again to play them (the run resumes)",
      ].join("\n"),
    );
  }
}
