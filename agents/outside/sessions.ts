/**
 * `bazaar serve`'s side of the waiting agent: MCP sessions wait for episodes and episodes for
 * sessions. A session asks for an episode at its first tool call (not at initialize: a client that
 * only connects or lists tools holds nothing); that admits one trial to the runner (`admit`), whose
 * lease is claimed then; the trial's first turn makes its link, which goes to the session that has
 * waited longest. A session that closes before its episode ends leaves the trial failed (played
 * again by a later session), never answered — unless it is the `maxAbandons`-th session in a row to
 * end with that trial claimed and no step taken: an agent that always leaves a trial without acting
 * (a framing it cannot read, a task it refuses) would otherwise be handed it forever, so that is its
 * non-answer (DESIGN.md § Agents from outside).
 */
import { DEFAULT_MAX_ABANDONS, LEFT_WITHOUT_ACTING } from "../../environments/kernel/failures.ts";
import { GET_TASK_TOOL } from "../../environments/kernel/surface.ts";
import type { SessionEpisodes } from "./mcp.ts";
import type { EpisodeLink } from "./waiting.ts";

type Bound = EpisodeLink | { none: string };

interface Waiter {
  resolve(ep: Bound): void;
}

export class SessionHub {
  private readonly waiting: Waiter[] = [];
  /** Links made for sessions that went away before they were bound: the next session takes them. */
  private readonly orphans: EpisodeLink[] = [];
  /** Trials admitted whose link has not come yet. */
  private admitted = 0;
  private readonly admitWaiters: (() => void)[] = [];
  private closedText: string | null = null;
  /** Sessions that are playing or waiting, for the server's status lines. */
  active = 0;
  /**
   * Per link (a trial, or one negotiation of it for a shop seller): the sessions in a row that ended
   * with it taken and no step made.
   */
  private readonly abandons = new Map<string, number>();

  /**
   * @param serial a session plays episodes one after another (stdio: the one session there is);
   * otherwise a session plays one episode and later calls are told it is over.
   * @param maxAbandons sessions in a row that may leave a trial without acting before that is the
   * agent's non-answer (`--max-abandons`).
   */
  constructor(
    private readonly serial: boolean,
    private readonly maxAbandons = DEFAULT_MAX_ABANDONS,
  ) {
    if (!Number.isInteger(maxAbandons) || maxAbandons < 1)
      throw new RangeError(`maxAbandons must be a whole number ≥ 1, got ${maxAbandons}`);
  }

  /** The runner's admission: resolves once a session waits for an episode no admitted trial will serve. */
  admit = async (signal: AbortSignal): Promise<(() => void) | null> => {
    while (this.closedText === null && !signal.aborted && this.waiting.length <= this.admitted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener("abort", done);
          resolve();
        };
        this.admitWaiters.push(done);
        signal.addEventListener("abort", done, { once: true });
      });
    }
    if (this.closedText !== null || signal.aborted) return null;
    this.admitted++;
    let undone = false;
    return () => {
      if (undone) return;
      undone = true;
      this.admitted--;
    };
  };

  /** The waiting agent's `linkEpisode`: the new episode goes to the session that has waited longest. */
  link = (link: EpisodeLink): void => {
    this.admitted = Math.max(0, this.admitted - 1);
    // A trial someone acted in is no longer being left: its count starts again (or is done with).
    link.onEnd(() => {
      if (link.steps > 0) this.abandons.delete(link.key);
    });
    const w = this.waiting.shift();
    if (w) w.resolve(link);
    else this.orphans.push(link);
    this.wake();
  };

  /** No more episodes (the run is complete, or the server is stopping): waiting sessions are told why. */
  close(text: string): void {
    this.closedText = text;
    for (const w of this.waiting.splice(0)) w.resolve({ none: text });
    this.wake();
  }

  /** Episodes may start again (`--keep-open` after a pass that left failed trials). */
  reopen(): void {
    this.closedText = null;
  }

  private wake(): void {
    for (const w of this.admitWaiters.splice(0)) w();
  }

  private request(): { bound: Promise<Bound>; cancel(): void } {
    if (this.closedText !== null) return { bound: Promise.resolve({ none: this.closedText }), cancel() {} };
    const orphan = this.orphans.shift();
    if (orphan) return { bound: Promise.resolve(orphan), cancel() {} };
    let waiter!: Waiter;
    const bound = new Promise<Bound>((resolve) => {
      waiter = { resolve };
      this.waiting.push(waiter);
      this.wake();
    });
    return {
      bound,
      cancel: () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) {
          this.waiting.splice(i, 1);
          waiter.resolve({ none: "the session is closed" });
        }
      },
    };
  }

  /** One MCP session's episodes, and what to call when the session ends. */
  session(): { episodes: SessionEpisodes; closed(): void } {
    let current: Promise<Bound> | null = null;
    let link: EpisodeLink | null = null;
    let cancel = () => {};
    let closed = false;
    this.active++;
    const episodes: SessionEpisodes = {
      episode: async (tool?: string) => {
        if (closed) return { none: "the session is closed" };
        // Serial sessions (stdio) start their next episode with get_task once one is over.
        if (this.serial && link?.over && tool === GET_TASK_TOOL) {
          current = null;
          link = null;
        }
        if (!current) {
          const pending = this.request();
          current = pending.bound;
          cancel = pending.cancel;
          const bound = await pending.bound;
          if (closed) {
            // The session went away while it waited: its episode goes to the next one.
            if (!("none" in bound)) this.orphans.push(bound);
            return { none: "the session is closed" };
          }
          if (!("none" in bound)) link = bound;
          else current = null; // the run may reopen: ask again next time
          return bound;
        }
        return current;
      },
    };
    return {
      episodes,
      closed: () => {
        if (closed) return;
        closed = true;
        this.active--;
        cancel();
        if (link) this.left(link);
      },
    };
  }

  /** A session ended before its episode did: the trial is failed, or, left once too often, answered. */
  private left(link: EpisodeLink): void {
    if (link.over) return;
    if (link.steps > 0) {
      this.abandons.delete(link.key);
      link.gone(
        `the MCP session closed mid-episode, after ${link.steps} step${link.steps === 1 ? "" : "s"}`,
        "the MCP session closed mid-episode",
      );
      return;
    }
    const times = (this.abandons.get(link.key) ?? 0) + 1;
    if (times >= this.maxAbandons) {
      this.abandons.delete(link.key);
      link.quit(
        `${LEFT_WITHOUT_ACTING} ${times} time${times === 1 ? "" : "s"}: ${times === 1 ? "its MCP session" : `${times} MCP sessions in a row`} took this trial and ended before a step (--max-abandons ${this.maxAbandons})`,
      );
      return;
    }
    this.abandons.set(link.key, times);
    link.gone(
      `the MCP session closed before its first step (${times} of ${this.maxAbandons} in a row for this trial; at ${this.maxAbandons} it is the agent's non-answer, --max-abandons)`,
      "the MCP session closed before its first step",
    );
  }
}
