/**
 * A bargaining dialogue as display lines: one header line per message (turn, speaker, action,
 * price) and its talk wrapped under it, windowed to the last `maxLines` lines so that a long
 * session keeps its latest turns on screen. Layout only.
 */
import { usd, wrap } from "../format.ts";
import type { BargainMessage } from "../records/index.ts";

export interface DialogueLine {
  role: string;
  /** A message's first line (its action) or a line of its talk. */
  part: "head" | "talk" | "elided";
  text: string;
}

export function dialogueLines(
  messages: readonly BargainMessage[],
  shown: number,
  width: number,
  maxLines: number,
): DialogueLine[] {
  const lines: DialogueLine[] = [];
  const indent = "      ";
  for (const m of messages.slice(0, shown)) {
    const price = m.price === null ? "" : ` ${usd(m.price)}`;
    lines.push({
      role: m.role,
      part: "head",
      text: `t${String(m.turn).padEnd(3)} ${m.role.padEnd(6)} ${m.action}${price}`,
    });
    if (m.talk.trim()) {
      for (const l of wrap(`“${m.talk.trim()}”`, Math.max(10, width - indent.length)))
        lines.push({ role: m.role, part: "talk", text: indent + l });
    }
  }
  if (lines.length <= maxLines) return lines;
  const keep = lines.slice(lines.length - (maxLines - 1));
  const hidden = lines.length - keep.length;
  return [{ role: "", part: "elided", text: `… ${hidden} earlier lines` }, ...keep];
}
