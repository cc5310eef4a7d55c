import type { RunProgress } from "../environments/runner/execute.ts";
import { clip, duration, rate as perTime } from "./tui/format.ts";
import { type UntilView, untilShortText, untilTarget } from "./tui/until.ts";

function fmt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/**
 * A one-line progress bar on a terminal (redrawn in place, throttled); nothing on a pipe, where the
 * final summary is what a script reads. Renders from the runner's progress events, and with a
 * stopping rule (`--until`) from what the rule's last look left (`until`): the design's total is
 * then only a bound (`123/≤3,600 trials · ETA ≤5m00s`), and the line says where the targets stand.
 * The line is cut to the terminal's width: a wrapped line would not be redrawn in place.
 */
export class ProgressLine {
  private last = 0;
  private shown = false;

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly enabled = Boolean(process.stderr.isTTY),
    private readonly until?: () => UntilView,
  ) {}

  update(p: RunProgress, force = false): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    this.stream.write(`\r\x1b[2K${progressText(p, this.until?.() ?? null, this.stream.columns)}`);
    this.shown = true;
  }

  end(): void {
    if (this.shown) this.stream.write("\n");
    this.shown = false;
  }
}

/** The progress line's text, at most `columns − 1` wide where the width is known. */
export function progressText(p: RunProgress, until: UntilView | null, columns?: number): string {
  const { target, bounded } = untilTarget(until, p.target, p.stored);
  const le = bounded ? "≤" : "";
  const frac = target === 0 ? 1 : Math.min(1, p.stored / target);
  const rate = p.elapsedMs > 0 ? (p.ranNow * 1000) / p.elapsedMs : 0;
  const left = rate > 0 ? Math.max(0, (target - p.stored) / rate) : Number.NaN;
  const counts = `${fmt(p.stored)}/${le}${fmt(target)} trials`;
  const eta = `ETA ${le}${p.stored >= target ? "0s" : duration(left)}`;
  const failed = p.failedNow > 0 ? ` · ${fmt(p.failedNow)} failed` : "";
  const nonResponses = `${fmt(p.nonResponsesNow)} non-responses`;
  // With a stopping rule, where its targets stand comes before what a narrow terminal may cut.
  const text = until
    ? `${counts} · ${eta}${failed} · ${untilShortText(until)} · ${perTime(rate)} · ${nonResponses}`
    : `${counts} · ${perTime(rate)} · ${nonResponses}${failed} · ${eta}`;
  const room = columns && columns > 1 ? columns - 1 : Number.POSITIVE_INFINITY;
  // The bar gives way first (30 wide down to 10), then the text is cut.
  const width = Math.max(10, Math.min(30, room - text.length - 1));
  const bar = "█".repeat(Math.round(frac * width)).padEnd(width, "░");
  const line = `${bar} ${text}`;
  return Number.isFinite(room) ? clip(line, room) : line;
}
