/**
 * The paper's plain-text protocol. A reply has the lines `Thought:`, `Talk:` and `Action:`; only
 * Talk and Action reach the other side. The action is the last match, on the Action line, of the
 * reference pattern `[TYPE] $M (N codename)`, commas stripped from the money, which is rounded to
 * cents. Strict beyond the reference in two ways, both stated in the reason of the action error:
 * a side may use only its own actions (a buyer's [SELL] is an error, not ignored), and every priced
 * action must name exactly `1x <codename>` of the session's item.
 */
import { formatUsd, roundCents } from "../kernel/money.ts";
import { type BargainRole, BUYER, type MoveType } from "./types.ts";

/** The reference pattern; group 1 the type, 2 the money, 3 the objects ("1x code, 2x other"). */
export const ACTION_PATTERN = /\[([A-Z]+)\](?: \$([\d,]+(?:\.[\d,]+)?) \(((?:\d+x? .+, )*\d+x? .+?)\))?/g;

const ALL_WORDS = new Set(["BUY", "SELL", "DEAL", "REJECT", "QUIT"]);
const MOVE_OF_WORD: Readonly<Record<BargainRole, Readonly<Record<string, MoveType>>>> = {
  buyer: { BUY: "offer", DEAL: "deal", REJECT: "reject", QUIT: "quit" },
  seller: { SELL: "offer", DEAL: "deal", REJECT: "reject", QUIT: "quit" },
};

/** The action word of a move: an offer is [BUY] from the buyer and [SELL] from the seller. */
export function actionWord(role: BargainRole, type: MoveType): string {
  if (type === "offer") return role === BUYER ? "BUY" : "SELL";
  return type.toUpperCase();
}

/** "[BUY] $120.50 (1x electronics_3)", "[REJECT]". */
export function renderAction(
  role: BargainRole,
  type: MoveType,
  price: number | null,
  codename: string,
): string {
  const word = actionWord(role, type);
  return price === null ? `[${word}]` : `[${word}] ${formatUsd(price)} (1x ${codename})`;
}

/** Talk on one line: the other side reads a message line by line. */
export function oneLine(text: string): string {
  // Most talk is already one clean line; checking is cheaper than rebuilding the string.
  return NEEDS_CLEANING.test(text) ? text.replace(/\s+/g, " ").trim() : text;
}
const NEEDS_CLEANING = /[^\S ]| {2}|^ | $/;

/** What the other side receives: the Talk and the Action lines. */
export function renderMessage(talk: string, action: string): string {
  return `Talk: ${talk}\nAction: ${action}`;
}

export type ReplyVerdict =
  | { ok: true; type: MoveType; price: number | null; thought: string; talk: string }
  | { ok: false; reason: string; thought: string; talk: string };

function line(text: string, label: string): string | null {
  const m = new RegExp(`${label}: (.+)`).exec(text);
  return m ? (m[1] as string).replace(/\r$/, "").trim() : null;
}

/** Reads one paper-format reply from `role` about the item `codename`. */
export function parseBargainReply(text: string, role: BargainRole, codename: string): ReplyVerdict {
  const thought = line(text, "Thought") ?? "";
  const talk = line(text, "Talk") ?? "";
  const fail = (reason: string): ReplyVerdict => ({ ok: false, reason, thought, talk });
  if (text.trim() === "") return fail("empty reply");
  const actionLine = line(text, "Action");
  if (actionLine === null) return fail("no Action line");
  const matches = [...actionLine.matchAll(ACTION_PATTERN)];
  const last = matches.at(-1);
  if (!last) return fail("no action in the Action line");
  const [, word, money, objects] = last as unknown as [
    string,
    string,
    string | undefined,
    string | undefined,
  ];
  if (!ALL_WORDS.has(word)) return fail(`[${word}] is not an action`);
  const type = MOVE_OF_WORD[role][word];
  if (type === undefined) return fail(`[${word}] is not a ${role} action`);
  if (type === "reject" || type === "quit") {
    if (money !== undefined) return fail(`[${word}] takes no price`);
    return { ok: true, type, price: null, thought, talk };
  }
  if (money === undefined || objects === undefined)
    return fail(`[${word}] needs a price and the item, e.g. [${word}] $10 (1x ${codename})`);
  const price = Number(money.replaceAll(",", ""));
  if (!Number.isFinite(price)) return fail(`[${word}] has an unreadable price "$${money}"`);
  const items = objects.split(", ").map((part) => /^(\d+)x? (.+)$/.exec(part));
  const only = items.length === 1 ? items[0] : null;
  if (!only || Number(only[1]) !== 1 || (only[2] as string).trim() !== codename)
    return fail(`the action names "${objects}"; this session trades 1x ${codename}`);
  return { ok: true, type, price: roundCents(price), thought, talk };
}

/** The reply the paper format asks for, as a simulated model writes it. */
export function renderReply(thought: string, talk: string, action: string): string {
  return `Thought: ${thought}\nTalk: ${talk}\nAction: ${action}`;
}
