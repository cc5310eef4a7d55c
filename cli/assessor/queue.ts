/**
 * Audits run one at a time, later ones waiting their turn (up to a limit, beyond which a request is
 * rejected as busy). Why not several at once: a run already plays its trials `--concurrency` at a
 * time, so a second audit would add nothing but contention — for the assessor's cores, and for each
 * participant's time limits (`--episode-timeout`), which would then measure the other audit's load.
 * Audits one after another keep each run's timing its own; a platform that sends several gets them
 * all, in order, each told how many are ahead of it.
 */

/** The abort reason of audits stopped because the assessor is stopping (not canceled by a client). */
export const STOPPING = "the assessor is stopping";

export interface Turn {
  readonly taskId: string;
  /** Aborted when the audit is canceled (running or waiting). */
  readonly controller: AbortController;
  /** Resolves true when the audit may start, false when it was canceled while waiting. */
  readonly ready: Promise<boolean>;
}

interface Entry extends Turn {
  start(go: boolean): void;
}

export class AuditQueue {
  private running: Entry | null = null;
  private readonly waiting: Entry[] = [];
  /** Told when the running audit leaves with none after it (`stop` waits for it). */
  private stopped: (() => void) | null = null;

  constructor(private readonly maxWaiting: number) {}

  /** A place in line, or null when the line is full. */
  enter(taskId: string): Turn | null {
    if (this.running !== null && this.waiting.length >= this.maxWaiting) return null;
    let start!: (go: boolean) => void;
    const ready = new Promise<boolean>((resolve) => {
      start = resolve;
    });
    const entry: Entry = { taskId, controller: new AbortController(), ready, start };
    if (this.running === null) {
      this.running = entry;
      entry.start(true);
    } else this.waiting.push(entry);
    return entry;
  }

  /** Audits ahead of this one (0 once it runs). */
  ahead(turn: Turn): number {
    const i = this.waiting.indexOf(turn as Entry);
    return i < 0 ? 0 : i + 1;
  }

  /** The audit is over: the next one starts. */
  leave(turn: Turn): void {
    const i = this.waiting.indexOf(turn as Entry);
    if (i >= 0) this.waiting.splice(i, 1);
    if (this.running !== turn) return;
    this.running = this.waiting.shift() ?? null;
    this.running?.start(true);
    if (this.running === null) this.stopped?.();
  }

  /** Cancels the audit of `taskId`: a running one is stopped, a waiting one leaves the line. */
  cancel(taskId: string, reason = "canceled"): boolean {
    const turn =
      this.running?.taskId === taskId ? this.running : this.waiting.find((e) => e.taskId === taskId);
    if (!turn) return false;
    turn.controller.abort(reason);
    if (turn !== this.running) {
      this.waiting.splice(this.waiting.indexOf(turn), 1);
      turn.start(false);
    }
    return true;
  }

  /** Stops every audit, running or waiting (the server is stopping); resolves once none runs. */
  async stop(): Promise<void> {
    for (const e of [...this.waiting]) this.cancel(e.taskId, STOPPING);
    const running = this.running;
    if (!running) return;
    this.cancel(running.taskId, STOPPING);
    await new Promise<void>((resolve) => {
      this.stopped = resolve;
    });
  }
}
