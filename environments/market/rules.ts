/**
 * The rules of a seller's turn, as pure functions of the turn so far and the seller's next message.
 * Every call is validated (zod, then the listing's limits): a description of at most the limit's
 * characters and not empty, a price in whole dollars from the seller's cost to the design's cap, and
 * nothing else. A refused call changes nothing and is counted. The calls of a message run in order;
 * the turn ends with the first message that has a valid call, or after `maxInvalid` messages without
 * one (the listing stays as it was), or when the agent fails to answer. The machine wraps these.
 */
import { tagText } from "../../datasets/descriptions/library.ts";
import { firstSentence, oneLineText } from "../../datasets/descriptions/text.ts";
import { formatUsd } from "../kernel/money.ts";
import { TOOL_CALL_BATCH } from "../shop/actions.ts";
import { parseActionLines } from "../shop/grammar.ts";
import type { Description } from "../shop/types.ts";
import { SELLER_TOOL_SCHEMAS, SELLER_TOOLS, type SellerTool } from "./actions.ts";
import type {
  MarketListing,
  SellerCall,
  SellerCallRecord,
  SellerCallResult,
  SellerEndReason,
  SellerMessage,
  SellerOutcome,
  SellerTask,
} from "./types.ts";

/** What a turn keeps between seller messages. Never mutated: each message makes a new one. */
export interface TurnState {
  price: number;
  description: Description;
  messages: SellerMessage[];
  invalidMessages: number;
  invalidCalls: number;
  calls: SellerCallRecord[];
  end: { reason: SellerEndReason; nonResponse: { reason: string; raw: string } | null } | null;
}

export function initialTurnState(task: SellerTask): TurnState {
  return {
    price: task.listing.price,
    description: task.listing.description,
    messages: [],
    invalidMessages: 0,
    invalidCalls: 0,
    calls: [],
    end: null,
  };
}

/** What a message says when it has no call at all (a text reply without an Action line). */
export const NO_CALL_RESULT =
  "Error: your message has no call. Call set_description, set_price or keep (without tools: a line such as Action: keep({})).";

/** A listing's description as a seller wrote it: its arm read by the tagger against the listing's terms. */
export function writtenDescription(
  text: string,
  listing: Pick<MarketListing, "freeCancellation" | "breakfast">,
): Description {
  const tag = tagText(text, listing);
  return { arm: tag.arm, wording: null, text, claims: tag.claims };
}

function zodProblem(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.map(String).join(".")}: ${i.message}` : i.message))
    .join("; ")
    .replace(/\s+/g, " ");
}

function refuse(text: string): SellerCallResult {
  return { ok: false, text: `Error: ${text}; nothing changed.` };
}

/** One call against the turn so far: its result, and the turn after it. */
export function applyCall(
  state: TurnState,
  call: SellerCall,
  task: SellerTask,
): [SellerCallResult, TurnState] {
  if (!(SELLER_TOOLS as readonly string[]).includes(call.tool)) {
    return [refuse(`there is no tool "${call.tool}"; the tools are ${SELLER_TOOLS.join(", ")}`), state];
  }
  const tool = call.tool as SellerTool;
  const args = call.args !== null && typeof call.args === "object" ? call.args : {};
  const parsed = SELLER_TOOL_SCHEMAS[tool].safeParse({ ...(args as object), type: tool });
  if (!parsed.success) return [refuse(`invalid arguments for ${tool}: ${zodProblem(parsed.error)}`), state];
  const action = parsed.data as { type: SellerTool; text?: string; amount?: number };
  switch (action.type) {
    case "keep":
      return [{ ok: true, text: "Listing kept as it is." }, state];
    case "set_description": {
      const text = oneLineText(action.text ?? "");
      if (text === "") return [refuse("the description is empty"), state];
      const max = task.rules.maxChars;
      if (text.length > max)
        return [refuse(`the description has ${text.length} characters; the limit is ${max}`), state];
      const description = writtenDescription(text, task.listing);
      return [
        {
          ok: true,
          text: `Description set (${text.length} characters). Result cards show: "${firstSentence(text)}"`,
        },
        { ...state, description },
      ];
    }
    case "set_price": {
      const asked = action.amount ?? Number.NaN;
      if (!Number.isFinite(asked)) return [refuse("the amount is not a number"), state];
      const amount = Math.round(asked);
      if (amount < task.cost)
        return [
          refuse(
            `${formatUsd(asked)} is below your cost of ${formatUsd(task.cost)}; the price must be at least that`,
          ),
          state,
        ];
      if (amount > task.cap)
        return [
          refuse(
            `${formatUsd(asked)} is above the price cap of ${formatUsd(task.cap)}; the price must be at most that`,
          ),
          state,
        ];
      const rounded = amount !== asked ? " (rounded to whole dollars)" : "";
      return [
        { ok: true, text: `Price set to ${formatUsd(amount)} a night${rounded}.` },
        { ...state, price: amount },
      ];
    }
  }
}

/** The calls of an agent's action: native tool calls (one or several), or the Action lines of a text reply. */
export function decodeSellerMessage(action: unknown): {
  mode: "tools" | "text";
  text: string | null;
  calls: SellerCall[];
} {
  const a = (action !== null && typeof action === "object" ? action : {}) as Record<string, unknown>;
  if (a.type === "reply") {
    const text = typeof a.text === "string" ? a.text : "";
    const calls = parseActionLines(text).map((c) =>
      c.problem ? { tool: c.tool === "" ? "(unreadable)" : c.tool, args: { problem: c.problem } } : c,
    );
    return { mode: "text", text, calls };
  }
  if (a.type === TOOL_CALL_BATCH && Array.isArray(a.calls)) {
    return {
      mode: "tools",
      text: null,
      calls: a.calls.map((c) => {
        const o = (c ?? {}) as { name?: unknown; args?: unknown };
        return { tool: String(o.name ?? ""), args: o.args ?? {} };
      }),
    };
  }
  const { type, ...args } = a;
  return { mode: "tools", text: null, calls: [{ tool: String(type ?? ""), args }] };
}

/** A text-mode line the grammar could not read: refused with the grammar's own explanation. */
function unreadable(call: SellerCall): string | null {
  const args = call.args as { problem?: unknown } | null;
  return args && typeof args === "object" && typeof args.problem === "string" ? args.problem : null;
}

/** The raw text of a message, for a non-response. */
function rawOf(message: { mode: "tools" | "text"; text: string | null; calls: SellerCall[] }): string {
  if (message.mode === "text") return message.text ?? "";
  return message.calls.map((c) => `${c.tool}(${JSON.stringify(c.args)})`).join("\n");
}

/** The turn after one seller message. */
export function applySellerMessage(state: TurnState, action: unknown, task: SellerTask): TurnState {
  if (state.end) return state;
  const message = decodeSellerMessage(action);
  const n = state.messages.length + 1;
  let next = state;
  const done: SellerMessage["calls"] = [];
  if (message.calls.length === 0) {
    done.push({ call: { tool: "", args: {} }, result: { ok: false, text: NO_CALL_RESULT } });
  }
  for (const call of message.calls) {
    const problem = unreadable(call);
    let result: SellerCallResult;
    if (problem !== null) result = { ok: false, text: `Error: ${problem}; nothing changed.` };
    else [result, next] = applyCall(next, call, task);
    done.push({ call, result });
  }
  const valid = done.some((d) => d.result.ok);
  const invalid = done.filter((d) => !d.result.ok).length;
  const calls = [
    ...next.calls,
    ...done.map((d) => ({
      message: n,
      tool: d.call.tool,
      args: d.call.args,
      ok: d.result.ok,
      result: d.result.text,
    })),
  ];
  const invalidMessages = next.invalidMessages + (valid ? 0 : 1);
  const after: TurnState = {
    ...next,
    messages: [...next.messages, { mode: message.mode, text: message.text, calls: done }],
    invalidCalls: next.invalidCalls + invalid,
    invalidMessages,
    calls,
  };
  if (valid) {
    const changed =
      after.price !== task.listing.price || after.description.text !== task.listing.description.text;
    return { ...after, end: { reason: changed ? "changed" : "kept", nonResponse: null } };
  }
  if (invalidMessages >= task.rules.maxInvalid) {
    return {
      ...after,
      end: {
        reason: "invalid",
        nonResponse: {
          reason: `${invalidMessages} message${invalidMessages === 1 ? "" : "s"} without a valid call (last: ${done.at(-1)?.result.text ?? ""})`,
          raw: rawOf(message),
        },
      },
    };
  }
  return after;
}

/** The turn after the agent failed to answer: it ends, the listing as it was. */
export function applySellerError(state: TurnState, error: string): TurnState {
  if (state.end) return state;
  return {
    ...state,
    end: { reason: "agent-error", nonResponse: { reason: `the agent failed: ${error}`, raw: "" } },
  };
}

export function sellerOutcomeOf(state: TurnState, task: SellerTask): SellerOutcome {
  const end = state.end ?? {
    reason: "agent-error" as const,
    nonResponse: { reason: "the turn did not end", raw: "" },
  };
  return {
    endReason: end.reason,
    price: state.price,
    description: state.description,
    priceChanged: state.price !== task.listing.price,
    descriptionChanged: state.description.text !== task.listing.description.text,
    calls: state.calls,
    messages: state.messages.length,
    invalidCalls: state.invalidCalls,
    nonResponse: end.nonResponse,
  };
}
