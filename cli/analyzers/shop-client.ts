/**
 * The client side of `bazaar analyze <shop run>` (specs/client.md): which episodes a run with
 * clients analyses (`--client-faults`, refused on a run without clients), the client analysis, and
 * its headline lines. The estimators are analysis/shop/client's; this only reads options and
 * formats.
 */
import { percent } from "../../analysis/report/format.ts";
import {
  analyzeClients,
  CLIENT_FAULT_MODES,
  type ClientAnalysis,
  type ClientFaultMode,
  clientEpisodes,
  dollarsCell,
  hasClients,
  leftOutNote,
  ratioCell,
  selectByClientFaults,
} from "../../analysis/shop/client/index.ts";
import { type ShopEpisode, shareCell } from "../../analysis/shop/index.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { renderTable } from "../table.ts";

/** `--client-faults`: a mode, or the default (exclude) when not given. */
export function parseClientFaults(value: unknown): ClientFaultMode {
  if (value === undefined) return "exclude";
  const v = String(value).trim();
  if (!(CLIENT_FAULT_MODES as readonly string[]).includes(v))
    throw new UserError(
      `--client-faults: expected ${CLIENT_FAULT_MODES.join(", ")}, got "${String(value)}"`,
      "include: every episode; exclude (the default): leave out episodes with a client fault; only: just those",
    );
  return v as ClientFaultMode;
}

export interface ClientSide {
  /** The shop episodes every shop estimate reads (the client-fault option applied). */
  episodes: ShopEpisode[];
  analysis: ClientAnalysis | null;
}

/**
 * A run with clients: the client analysis, and the shop's episodes with the same option applied,
 * so that every table of the run leaves out the same episodes. A run without clients: its episodes
 * as they are, and `--client-faults` refused.
 */
export function clientSide(
  runId: string,
  episodes: ShopEpisode[],
  options: { clientFaults?: unknown; draws: number; seed: string },
): ClientSide {
  if (!hasClients(episodes)) {
    if (options.clientFaults !== undefined)
      throw new UserError(
        `--client-faults applies to shop runs with clients, and run ${runId} has none`,
        "a run with clients is made by bazaar run shop --client <specs>; leave the option out here",
      );
    return { episodes, analysis: null };
  }
  const mode = parseClientFaults(options.clientFaults);
  const all = clientEpisodes(episodes);
  const analysis = analyzeClients(all, { clientFaults: mode, draws: options.draws, seed: options.seed });
  // Agents in the order the run has them, whichever of their episodes were left out.
  const order = new Map<string, number>();
  for (const e of all) if (!order.has(e.agent)) order.set(e.agent, order.size);
  const kept = selectByClientFaults(all, mode).kept.map((e, i) => ({ e, i }));
  kept.sort((a, b) => order.get(a.e.agent)! - order.get(b.e.agent)! || a.i - b.i);
  return { episodes: kept.map((k) => k.e), analysis };
}

/**
 * The headline of a run with clients: per cell success, regret with its interval, the share of the
 * best surplus captured, the share of hidden requirements learned, messages, and — when any
 * episode had one — the client faults.
 */
export function clientHeadline(c: ClientAnalysis): { lines: string[]; json: unknown } {
  const faults = c.flagged > 0;
  const rows = c.cells.map((g) => ({
    agent: g.agent,
    shopper: g.shopper,
    client: g.client,
    persona: g.persona,
    episodes: g.episodes,
    success: { estimate: g.success.estimate, low: g.success.low, high: g.success.high },
    regret: { estimate: g.regret.estimate, low: g.regret.low, high: g.regret.high },
    captured: { estimate: g.captured.estimate, low: g.captured.low, high: g.captured.high },
    learned: {
      estimate: g.uncovered.learned.estimate,
      low: g.uncovered.learned.low,
      high: g.uncovered.learned.high,
    },
    messages: g.burden.messages.estimate,
    flagged: g.flagged,
  }));
  const left = leftOutNote(c);
  const lines = [
    "working for a client (regret in the client's dollars a night; 95% task-clustered intervals):",
    ...renderTable(
      [
        "agent",
        "episodes",
        "success",
        "regret",
        "captured",
        "requirements learned",
        "messages",
        ...(faults ? ["client faults"] : []),
      ],
      c.cells.map((g) => [
        g.agent,
        String(g.episodes),
        shareCell(g.success),
        dollarsCell(g.regret),
        ratioCell(g.captured),
        ratioCell(g.uncovered.learned),
        g.burden.messages.estimate === null ? "–" : g.burden.messages.estimate.toFixed(1),
        ...(faults ? [g.flagged > 0 ? `${g.flagged} flagged` : "–"] : []),
      ]),
    ).split("\n"),
    ...(left ? [left] : []),
  ];
  if (faults)
    lines.push(
      ...c.faults
        .filter((f) => f.faults > 0)
        .map(
          (f) =>
            `client ${f.client}: ${f.faults} faults in ${f.replies} replies (${percent(f.perReply.estimate)}), ${f.flagged.hits} of ${f.episodes} episodes flagged`,
        ),
    );
  return {
    lines,
    json: {
      clientFaults: c.clientFaults,
      leftOut: c.leftOut,
      flagged: c.flagged,
      cells: rows,
      faults: c.faults.map((f) => ({
        client: f.client,
        replies: f.replies,
        faults: f.faults,
        perReply: f.perReply.estimate,
        flagged: f.flagged.hits,
        episodes: f.episodes,
      })),
    },
  };
}
