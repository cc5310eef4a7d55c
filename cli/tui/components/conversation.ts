/**
 * A shop episode with a client as display rows: the tool calls and the conversation in the order
 * the episode had them (records/shop-client.ts `interleave`), each message attributed in a
 * speaker column and wrapped under its own text — never cut — and the client's faults on the reply
 * that has them. A call that carried a message to the client is drawn as that message (its
 * arguments and result are the message and the reply). Rows come in blocks the window keeps whole:
 * a call with its messages, or a message of its own (the opening). Layout only.
 */
import { wrap } from "../format.ts";
import type { ShopCallLine } from "../records/shop.ts";
import { interleave, type ShopMessage } from "../records/shop-client.ts";

export type StreamTone = "call" | "failed" | "not-run" | "agent" | "client" | "machine" | "fault" | "note";

export interface StreamRow {
  text: string;
  tone: StreamTone;
}

export interface StreamBlock {
  rows: StreamRow[];
  /** What the block holds, for the "… n earlier" line when it is scrolled away. */
  calls: number;
  messages: number;
}

/** The speaker column: wide enough for "machine" and a space. */
const SPEAKER = 8;
/** Text narrower than this wraps into a column too thin to read: the gutter gives way instead. */
const MIN_TEXT = 20;

function callPrefix(c: ShopCallLine): string {
  return c.step === null ? "  –" : `#${String(c.step).padStart(2)} m${c.turn}`;
}

/** Rows of `text` after a first-row head, continued under the text at `indent`. */
function hanging(head: string, text: string, width: number, tone: StreamTone): StreamRow[] {
  const room = Math.max(MIN_TEXT, width - head.length);
  const pad = " ".repeat(Math.min(head.length, Math.max(0, width - MIN_TEXT)));
  return wrap(text, room).map((line, i) => ({ text: i === 0 ? head + line : pad + line, tone }));
}

function speaker(m: ShopMessage): string {
  return m.from === "machine" ? "machine" : m.from;
}

function messageRows(m: ShopMessage, gutter: string, width: number): StreamRow[] {
  // The machine speaks in the client's place once its patience has run out: said so, on the line.
  const text =
    m.from === "machine" ? `${m.text} [the machine's line: the client's patience ran out]` : m.text;
  const head = gutter + speaker(m).padEnd(SPEAKER);
  const rows = hanging(head, text, width, m.from);
  const indent = " ".repeat(Math.min(head.length, Math.max(0, width - MIN_TEXT)));
  for (const f of m.faults)
    rows.push(...hanging(`${indent}⚠ `, `fault ${f.kind}: ${f.detail}`, width, "fault"));
  return rows;
}

/** A call that is not a message: its line, the arguments shortened (they are not a message), the result whole. */
function callRows(c: ShopCallLine, gutter: string, width: number): StreamRow[] {
  const room = Math.max(16, Math.floor(width / 3));
  const args = c.args.length > room ? `${c.args.slice(0, room - 1)}…` : c.args;
  const tone: StreamTone = c.step === null ? "not-run" : c.ok ? "call" : "failed";
  return hanging(gutter, `${c.tool || "(no call)"}(${args}) → ${c.summary}`, width, tone);
}

/**
 * The blocks of the stream: the calls shown (in replay, the first `step`; in flight, all) and the
 * messages up to the last of them (the opening always). `answering`: the step of a message the
 * client has not answered yet, drawn with a "…" reply.
 */
export function streamBlocks(
  calls: readonly ShopCallLine[],
  messages: readonly ShopMessage[],
  width: number,
  o: { upToStep: number; answering: number | null },
): StreamBlock[] {
  const shown = messages.filter((m) => m.step <= o.upToStep);
  const gutterWidth = Math.max(8, ...calls.map((c) => callPrefix(c).length + 1));
  const blocks: StreamBlock[] = [];
  for (const item of interleave(calls, shown)) {
    if (item.kind === "message") {
      const m = item.message;
      // The opening; or (in flight) a message whose call is not done until the client replies.
      const gutter = (m.step === 0 ? "opening" : `#${String(m.step).padStart(2)}`).padEnd(gutterWidth);
      const rows = messageRows(m, gutter, width);
      if (m.from === "agent" && m.step === o.answering)
        rows.push({ text: `${" ".repeat(gutterWidth)}${"client".padEnd(SPEAKER)}…`, tone: "note" });
      blocks.push({ rows, calls: 0, messages: 1 });
      continue;
    }
    const gutter = callPrefix(item.call).padEnd(gutterWidth);
    if (item.messages.length === 0) {
      blocks.push({ rows: callRows(item.call, gutter, width), calls: 1, messages: 0 });
      continue;
    }
    // A message to the client: the call's place shows the message, the reply under it.
    const rows = item.messages.flatMap((m, i) =>
      messageRows(m, i === 0 ? gutter : " ".repeat(gutterWidth), width),
    );
    if (item.call.summary.startsWith("the client ended"))
      rows.push({ text: `${" ".repeat(gutterWidth + SPEAKER)}(${item.call.summary})`, tone: "note" });
    blocks.push({ rows, calls: 1, messages: item.messages.length });
  }
  return blocks;
}

/**
 * The latest blocks that fit in `room` rows, whole, with a line saying what scrolled away. The last
 * block is shown whole even when it alone is taller: a message is never cut.
 */
export function streamWindow(blocks: readonly StreamBlock[], room: number): StreamRow[] {
  const total = blocks.reduce((n, b) => n + b.rows.length, 0);
  if (total <= room) return blocks.flatMap((b) => b.rows);
  let used = 1; // the "… earlier" line
  let first = blocks.length;
  while (first > 0) {
    const next = blocks[first - 1]!.rows.length;
    if (first < blocks.length && used + next > room) break;
    used += next;
    first--;
  }
  const hidden = blocks.slice(0, first);
  if (hidden.length === 0) return blocks.flatMap((b) => b.rows);
  const calls = hidden.reduce((n, b) => n + b.calls, 0);
  const messages = hidden.reduce((n, b) => n + b.messages, 0);
  const parts = [
    ...(calls > 0 ? [`${calls} earlier call${calls === 1 ? "" : "s"}`] : []),
    ...(messages > 0
      ? [`${messages} ${calls > 0 ? "" : "earlier "}message${messages === 1 ? "" : "s"}`]
      : []),
  ];
  return [{ text: `… ${parts.join(", ")}`, tone: "note" }, ...blocks.slice(first).flatMap((b) => b.rows)];
}

/** Rows the stream takes in a window of `room` rows. */
export function streamRows(blocks: readonly StreamBlock[], room: number): number {
  return streamWindow(blocks, room).length;
}
