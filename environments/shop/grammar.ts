/**
 * The text protocol for models without tools: a reply ends with one `Action: tool({json})` line per
 * call, in order. Every other line is the model's own reasoning and is not read. The grammar is
 * strict about the call itself — a line that starts with `Action:` but is not a tool name and a JSON
 * object in parentheses is a malformed call, answered with what was wrong and counted as invalid.
 */
import type { ShopCall } from "./types.ts";

// `s` on both: a line is split at "\n" only, and the JSON of a call may still hold U+2028/U+2029
// (JSON.stringify leaves them as they are), which a plain `.` would not match.
const ACTION_LINE = /^\s*Action:\s*(.*?)\s*$/s;
const CALL = /^([A-Za-z_][A-Za-z0-9_]*)\((.*)\)$/s;

/**
 * A call read from an agent message; `problem` says why it cannot be run as written. `note` is the
 * bookkeeping the message carried beside the call (`meta.note`, see `decodeMessage`): never an
 * argument, kept on the negotiation move an offer makes.
 */
export interface TextCall extends ShopCall {
  problem?: string;
  note?: string;
}

export const GRAMMAR_HINT = 'write one line per call, e.g. Action: search({"maxPrice": 200})';

/** The calls of a text reply, in order; empty when it has no `Action:` line. */
export function parseActionLines(text: string): TextCall[] {
  const calls: TextCall[] = [];
  for (const line of text.split("\n")) {
    const m = ACTION_LINE.exec(line);
    if (!m) continue;
    const body = m[1] as string;
    const call = CALL.exec(body);
    if (!call) {
      calls.push({ tool: "", args: body, problem: `cannot read the Action line "${body}": ${GRAMMAR_HINT}` });
      continue;
    }
    const tool = call[1] as string;
    const inner = (call[2] as string).trim();
    if (inner === "") {
      calls.push({ tool, args: {} });
      continue;
    }
    let args: unknown;
    try {
      args = JSON.parse(inner);
    } catch {
      calls.push({ tool, args: inner, problem: `the arguments of ${tool} are not valid JSON: ${inner}` });
      continue;
    }
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      calls.push({ tool, args, problem: `the arguments of ${tool} must be a JSON object, got ${inner}` });
      continue;
    }
    calls.push({ tool, args });
  }
  return calls;
}

/** The text form of a call (what a simulated model writes when tools are not offered). */
export function actionLine(tool: string, args: Record<string, unknown>): string {
  return `Action: ${tool}(${JSON.stringify(args)})`;
}
