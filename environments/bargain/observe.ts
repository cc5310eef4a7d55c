/**
 * Reading a negotiator's observation back out of the conversation an LLM client sends: the exact
 * inverse of `prompt.ts` and of the moves the machine relays. serve-sim uses it so that simulated
 * negotiators can play real sessions over HTTP. Strict: a conversation that is not one this
 * environment writes gives null rather than a half-read view.
 */
import { samePrice } from "../kernel/money.ts";
import type { Message, Observation } from "../kernel/types.ts";
import { judgeAction } from "./judge.ts";
import { BUYER_SYSTEM_PROMPT, SELLER_SYSTEM_PROMPT } from "./prompt.ts";
import { parseBargainReply } from "./text.ts";
import { type BargainMove, type BargainRole, type BargainView, BUYER, SELLER } from "./types.ts";

const PRODUCT = /^Inventory List:\nProduct 1 \(codename: (\S+)\)\nTitle: "(.*)"\nDescription: "/;
const LISTED = '"\nListed price: $';
const AMOUNT = /^(\d+(?:\.\d{2})?)/;

function amountAfter(text: string, label: string): number | null {
  const at = text.lastIndexOf(label);
  if (at < 0) return null;
  const m = AMOUNT.exec(text.slice(at + label.length));
  return m ? Number(m[1]) : null;
}

interface Intro {
  codename: string;
  title: string;
  description: string;
  listedPrice: number;
  limit: number;
  maxTurns: number;
}

/** The scenario as one side's first user message states it. */
export function readIntro(text: string, role: BargainRole): Intro | null {
  const head = PRODUCT.exec(text);
  if (!head) return null;
  const listedAt = text.lastIndexOf(LISTED);
  if (listedAt < 0) return null;
  const description = text.slice(head[0].length, listedAt);
  const tail = text.slice(listedAt + 1);
  const listedPrice = amountAfter(tail, "Listed price: $");
  const limit = amountAfter(tail, role === BUYER ? "\nbudget: $" : "\nCost: $");
  const turns = /at most (\d+) turns/.exec(tail);
  if (listedPrice === null || limit === null || !turns) return null;
  return {
    codename: head[1] as string,
    title: head[2] as string,
    description,
    listedPrice,
    limit,
    maxTurns: Number(turns[1]),
  };
}

/** An own earlier move: a paper-format reply, or a tool call as serve-sim shows it (`offer({...})`). */
function ownMove(content: string, role: BargainRole, codename: string): BargainMove | null {
  const call = /^(offer|deal|reject|quit)\((\{.*\})\)$/s.exec(content.trim());
  let j: ReturnType<typeof judgeAction>;
  if (call) {
    let args: unknown;
    try {
      args = JSON.parse(call[2] as string);
    } catch {
      return null;
    }
    if (args === null || typeof args !== "object") return null;
    j = judgeAction({ ...(args as object), type: call[1] }, role, codename);
  } else {
    j = judgeAction({ type: "reply", text: content }, role, codename);
  }
  return j.ok ? { role, type: j.type, price: j.price, talk: j.talk } : null;
}

/** Whether `by` offered `price` earlier (the reference's ±$0.01). */
function offeredBefore(history: readonly BargainMove[], by: BargainRole, price: number): boolean {
  return history.some((m) => m.role === by && m.type === "offer" && samePrice(m.price!, price));
}

/** The observation a side had when the conversation `messages` was sent; null if it is not ours. */
export function observeBargain(messages: readonly Message[]): Observation<BargainView> | null {
  const system = messages[0];
  const intro = messages[1];
  if (system?.role !== "system" || intro?.role !== "user") return null;
  const role: BargainRole | null =
    system.content === BUYER_SYSTEM_PROMPT ? BUYER : system.content === SELLER_SYSTEM_PROMPT ? SELLER : null;
  if (role === null) return null;
  const scenario = readIntro(intro.content, role);
  if (!scenario) return null;
  const counter = role === BUYER ? SELLER : BUYER;
  const history: BargainMove[] = [];
  for (let i = 2; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role === "system") return null;
    if (m.role === "assistant") {
      const move = ownMove(m.content, role, scenario.codename);
      if (!move || (move.type === "deal" && !offeredBefore(history, counter, move.price!))) {
        // A reply that was no move (unreadable, or a deal at a price never offered) with the talk
        // going on after it: a shop's seller answers its listing's next offer after one (the shop
        // read it as a rejection), and the history it is shown leaves it out. A session of this
        // environment ends at such a reply, so nothing after one is its conversation otherwise.
        if (messages[i + 1]?.role === "user") continue;
        return null;
      }
      history.push(move);
    } else {
      const v = parseBargainReply(m.content, counter, scenario.codename);
      if (!v.ok) return null;
      history.push({ role: counter, type: v.type, price: v.price, talk: v.talk });
    }
  }
  return { messages: messages.slice(), view: { role, ...scenario, history } };
}
