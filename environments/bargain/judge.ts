import { roundCents } from "../kernel/money.ts";
import { type ActionMeta, BargainActionSchema, META_KEY } from "./actions.ts";
import { oneLine, parseBargainReply } from "./text.ts";
import type { BargainRole, MoveType } from "./types.ts";

/** An agent's action read into a move, or why it cannot be one (an action error). */
export type Judgement =
  | {
      ok: true;
      type: MoveType;
      price: number | null;
      talk: string;
      thought?: string;
      raw?: string;
      meta?: ActionMeta;
    }
  | { ok: false; reason: string; raw: string; talk: string; thought?: string; meta?: ActionMeta };

function describeIssue(issue: { path: PropertyKey[]; message: string }): string {
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

function rawText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A structured move that the action schema certainly accepts, checked by hand: the common case,
 * on the path of every simulated session. Anything else goes to the schema, whose verdict (and
 * error message) is authoritative; a test checks that the two agree.
 */
export function wellFormedMove(body: unknown): { type: MoveType; price?: number; talk?: string } | null {
  if (body === null || typeof body !== "object") return null;
  const a = body as { type?: unknown; price?: unknown; talk?: unknown };
  if (a.talk !== undefined && typeof a.talk !== "string") return null;
  if (a.type === "offer" || a.type === "deal") {
    const p = a.price;
    return typeof p === "number" && Number.isFinite(p) && p >= 0
      ? (a as { type: MoveType; price: number })
      : null;
  }
  return a.type === "reject" || a.type === "quit" ? (a as { type: MoveType }) : null;
}

/**
 * Reads one action of `role` about the item `codename`: a structured move (prices rounded to
 * cents) or a paper-format reply parsed strictly. Malformed actions — an unknown type, a negative,
 * missing or non-numeric price, an unreadable reply — come back as `ok: false` with the raw action.
 */
export function judgeAction(action: unknown, role: BargainRole, codename: string): Judgement {
  let meta: ActionMeta | undefined;
  let body = action;
  if (action !== null && typeof action === "object" && META_KEY in action) {
    const { [META_KEY]: m, ...rest } = action as Record<string, unknown>;
    meta = m as ActionMeta;
    body = rest;
  }
  const fast = wellFormedMove(body);
  if (fast) {
    const price = fast.type === "offer" || fast.type === "deal" ? roundCents(fast.price as number) : null;
    return { ok: true, type: fast.type, price, talk: oneLine(fast.talk ?? ""), meta };
  }
  const parsed = BargainActionSchema.safeParse(body);
  if (!parsed.success) {
    const type = (body as { type?: unknown } | null)?.type;
    const known = ["offer", "deal", "reject", "quit", "reply"];
    const reason =
      typeof type === "string" && !known.includes(type)
        ? `unknown action "${type}"`
        : describeIssue(parsed.error.issues[0] ?? { path: [], message: "malformed action" });
    const talk = (body as { talk?: unknown } | null)?.talk;
    return {
      ok: false,
      reason,
      raw: rawText(body),
      talk: typeof talk === "string" ? oneLine(talk) : "",
      meta,
    };
  }
  const a = parsed.data;
  if (a.type === "reply") {
    const v = parseBargainReply(a.text, role, codename);
    const talk = oneLine(v.talk);
    if (!v.ok) return { ok: false, reason: v.reason, raw: a.text, talk, thought: v.thought, meta };
    return { ok: true, type: v.type, price: v.price, talk, thought: v.thought, raw: a.text, meta };
  }
  const price = a.type === "offer" || a.type === "deal" ? roundCents(a.price) : null;
  return { ok: true, type: a.type, price, talk: oneLine(a.talk ?? ""), meta };
}
