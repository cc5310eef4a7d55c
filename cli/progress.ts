import type { RunProgress } from "../environments/runner/execute.ts";
import { rate as perTime } from "./tui/format.ts";

function fmt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/**
 * A one-line progress bar on a terminal (redrawn in place, throttled); nothing on a pipe, where the
 * final summary is what a script reads. Renders from the runner's progress events only.
 */
export class ProgressLine {
  private last = 0;
  private shown = false;

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly enabled = Boolean(process.stderr.isTTY),
  ) {}

  update(p: RunProgress, force = false): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    const width = 30;
    const frac = p.target === 0 ? 1 : Math.min(1, p.stored / p.target);
    const bar = "█".repeat(Math.round(frac * width)).padEnd(width, "░");
    const rate = p.elapsedMs > 0 ? (p.ranNow * 1000) / p.elapsedMs : 0;
    const left = rate > 0 ? Math.max(0, (p.target - p.stored) / rate) : 0;
    const line = `${bar} ${fmt(p.stored)}/${fmt(p.target)} trials · ${perTime(rate)} · ${fmt(p.nonResponsesNow)} non-responses${p.failedNow > 0 ? ` · ${fmt(p.failedNow)} failed` : ""} · ETA ${left.toFixed(0)}s`;
    this.stream.write(`\r\x1b[2K${line}`);
    this.shown = true;
  }

  end(): void {
    if (this.shown) this.stream.write("\n");
    this.shown = false;
  }
}
