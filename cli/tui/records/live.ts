/**
 * Episodes in flight as the terminal shows them: a line for the list of episodes in flight, and the
 * focused one's view model — its environment's own (`adapter.live`) where it has one, else its turns
 * listed one per line, growing call by call.
 */
import { clip, duration } from "../format.ts";
import type { GenericEpisodeModel } from "./generic.ts";
import { adapterFor, type EpisodeModel } from "./index.ts";
import type { LiveEpisodeState, LiveTurn } from "./types.ts";

/** An action in a few words: its type and its fields ("offer price=104.37 talk=…", "choose option=B"). */
export function actionText(action: unknown, width = 80): string {
  if (action === null || action === undefined) return "—";
  if (typeof action !== "object") return clip(String(action), width);
  const { type, ...rest } = action as Record<string, unknown>;
  const fields = Object.entries(rest)
    .filter(([k, v]) => k !== "meta" && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v)}`)
    .join(" ");
  return clip(`${typeof type === "string" ? type : "action"}${fields ? ` ${fields}` : ""}`, width);
}

export function turnText(t: LiveTurn, width = 80): string {
  return clip(`${t.role} · ${t.error ? `failed: ${t.error}` : actionText(t.action, width)}`, width);
}

/** One line of the in-flight list: "#12 og-narrator vs rule:boulware · turn 3 · buyer · offer … · 4s". */
export function liveLine(e: LiveEpisodeState, now: number, width: number): string {
  const last = e.turns.at(-1);
  const age = duration((now - e.startedAt) / 1000);
  return clip(
    `#${e.seq} ${e.agent} · ${last ? `turn ${last.turn} · ${turnText(last, width)}` : "starting"} · ${age}`,
    width,
  );
}

function genericLive(env: string, e: LiveEpisodeState): GenericEpisodeModel {
  const last = e.turns.at(-1);
  return {
    kind: "generic",
    seq: e.seq,
    agent: e.agent,
    env,
    steps: Math.max(1, e.turns.length),
    live: true,
    note: null,
    fields: [
      ...e.turns.map((t) => ({ key: `turn ${t.turn}`, value: turnText(t, 400) })),
      ...(last?.summary ? [{ key: "saw", value: last.summary }] : []),
    ],
  };
}

/** The view model of an episode in flight. */
export function liveModel(env: string, e: LiveEpisodeState, task: unknown): EpisodeModel {
  const live = adapterFor(env).live;
  if (live) {
    const m = live(e, task);
    if (!("mismatch" in m)) return m as EpisodeModel;
  }
  return genericLive(env, e);
}
