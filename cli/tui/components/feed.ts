/**
 * The finished-episode feed as text, printed once above the live area (ink-view writes it through
 * ink's `useStdout().write`). Plain strings, not ink components: an ink <Static> re-renders the
 * whole live area a second time each time it prints, and rendering a few lines through ink costs
 * milliseconds where building them costs microseconds.
 */
import { clip, count, wrap } from "../format.ts";
import type { FeedItem } from "../state/dashboard.ts";

type Color = "gray" | "red" | "yellow";

/** The SGR codes of the colours the live area uses for these lines (ink's gray, red, yellow). */
const SGR: Record<Color, [string, string]> = {
  gray: ["\u001B[90m", "\u001B[39m"],
  red: ["\u001B[31m", "\u001B[39m"],
  yellow: ["\u001B[33m", "\u001B[39m"],
};

/** A line of the feed: seq, agent, outcome, detail — or how many finished episodes were not listed. */
export function feedLine(
  item: FeedItem,
  width: number,
  agentWidth = 16,
): { text: string; color: Color | null } {
  if (item.kind === "more")
    return { text: clip(`  … ${count(item.count)} more finished`, width), color: "gray" };
  const s = item.summary;
  // A name wider than its column ("<shopper> for <client>") goes on in the column on the next
  // lines, never cut.
  const names = s.agent.length > agentWidth ? wrap(s.agent, agentWidth) : [s.agent];
  const text = `#${String(s.seq).padEnd(6)} ${names[0]!.padEnd(agentWidth)} ${clip(s.outcome, 22).padEnd(22)} ${s.detail}`;
  const more = names.slice(1).map((n) => clip(`${" ".repeat(8)}${n}`, width));
  return {
    text: [clip(text, width), ...more].join("\n"),
    color: s.error ? "red" : s.nonResponse ? "yellow" : null,
  };
}

/** The feed lines, one a line (no line end after the last), coloured when the terminal shows colours. */
export function feedText(
  items: readonly FeedItem[],
  width: number,
  colors: boolean,
  /** The agent column's width (agentColumnWidth over the run's labels). */
  agentWidth = 16,
): string {
  return items
    .map((item) => {
      const { text, color } = feedLine(item, width, agentWidth);
      return colors && color ? `${SGR[color][0]}${text}${SGR[color][1]}` : text;
    })
    .join("\n");
}
