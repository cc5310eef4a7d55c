/**
 * The non-terminal fallback: the same information as the views, as plain lines for logs and pipes
 * (no escape codes, no redrawing).
 */
import { type EndpointRow, endpointParts } from "./endpoints.ts";
import { clip, cost, count, duration, pct, rate, tokensInOut, usd } from "./format.ts";
import type { EpisodeModel, EpisodeSummary, StatsView } from "./records/index.ts";
import { shopPlainLines } from "./records/shop.ts";
import type { AgentRow, DashboardView } from "./state/dashboard.ts";
import { untilShortText } from "./until.ts";

/**
 * The run's progress on a line. With a stopping rule (`--until`) the total and the ETA are bounds
 * (`123/≤3,600`, `ETA ≤1m05s`, the share done at least) and the line ends with where the targets stood
 * at the last look.
 */
export function plainProgressLine(v: DashboardView): string {
  const share = v.target === 0 ? 1 : v.stored / v.target;
  const nonResponses = v.agents.reduce((s, a) => s + a.nonResponses, 0);
  const le = v.bounded ? "≤" : "";
  const shown = v.bounded ? `≥${pct(share)}` : pct(share);
  return `[${shown.padStart(6)}] ${count(v.stored)}/${le}${count(v.target)} stored · ${rate(v.trialsPerSecond)} · ETA ${le}${duration(v.etaSeconds)} · non-responses ${count(nonResponses)} · errors ${count(v.errorCount)}${v.failed > 0 ? ` · failed ${count(v.failed)} (re-run by the same command)` : ""}${v.until ? ` · until ${untilShortText(v.until)}` : ""}`;
}

export function plainAgentLine(a: AgentRow): string {
  return `${a.agent}: ${count(a.done)}/${a.bounded ? "≤" : ""}${count(a.total)} · ${rate(a.trialsPerSecond)} · non-responses ${count(a.nonResponses)} · errors ${count(a.errors)} · retries ${count(a.retries)} · tokens ${tokensInOut(a.usage)} · cost ${cost(a.costUsd)}`;
}

/** A model endpoint's limiter on one line (a log line is never cut). */
export function plainEndpointLine(e: EndpointRow): string {
  return endpointParts(e).join(" · ");
}

export function plainStats(stats: StatsView, indent = "  "): string[] {
  return stats.lines.map((l) => `${indent}${l.label}: ${l.value}`);
}

export function plainSummary(s: EpisodeSummary): string {
  const flag = s.error ? " [error]" : s.nonResponse ? " [non-response]" : "";
  return `#${s.seq} ${s.agent} · ${s.outcome} · ${s.detail}${flag}`;
}

/** An episode in full as plain text: what the terminal view shows, every turn at once. */
export function plainEpisode(m: EpisodeModel): string[] {
  const out = [`episode #${m.seq} · ${m.agent} · ${m.env}`];
  switch (m.kind) {
    case "choice":
      out.push(`task ${m.taskId} · ${m.taskKind} · variant ${m.variant}`, `system: ${m.system}`, m.intro);
      for (const c of m.cards)
        out.push(
          "",
          ...c.lines.map((l, i) => (i === 0 && m.chosenSlot === m.cards.indexOf(c) ? `${l}  <- booked` : l)),
        );
      out.push("", m.instruction, ...m.replies.map((r, i) => `answer ${i + 1}: ${r}`));
      out.push(
        m.chosenSlot === null
          ? `non-response: ${m.nonResponse?.reason ?? "no answer"}`
          : `booked ${m.cards[m.chosenSlot]?.letter}: ${m.cards[m.chosenSlot]?.brief ?? ""}`,
      );
      break;
    case "bargain":
      out.push(
        `${m.product}${m.category ? ` (${m.category})` : ""}`,
        `${m.scenarioId} · ${m.interest} · listed ${usd(m.listedPrice)} · budget B ${usd(m.budget)} · cost C ${usd(m.cost)}`,
        `buyer ${m.buyer} · seller ${m.seller}`,
      );
      for (const x of m.messages)
        out.push(
          `turn ${x.turn} ${x.role}: ${x.action}${x.price === null ? "" : ` ${usd(x.price)}`}${x.talk ? ` — ${x.talk}` : ""}`,
        );
      if (m.profits)
        out.push(
          `deal at ${usd(m.dealPrice)} (${m.endedBy}) · profit buyer ${usd(m.profits.buyer)} (normalized ${m.profits.normalizedBuyer.toFixed(3)}) · seller ${usd(m.profits.seller)} (normalized ${m.profits.normalizedSeller.toFixed(3)})`,
        );
      else out.push(`${m.outcome} (${m.endedBy}${m.invalidSide ? `, ${m.invalidSide}` : ""})`);
      break;
    case "cue":
      out.push(`condition ${m.condition} · ${m.category}`);
      for (const c of m.cards)
        out.push("", ...c.lines.map((l, i) => (i === 0 && c.cued ? `${l}  (cued)` : l)));
      out.push("", ...m.replies.map((r, i) => `answer ${i + 1}: ${r}`));
      out.push(
        m.chosenSlot === null
          ? `non-response: ${m.nonResponse?.reason ?? ""}`
          : `chose slot ${m.chosenSlot + 1}${m.choseCued ? " (the cued product)" : " (not the cued product)"}`,
      );
      break;
    case "elicit":
      out.push(`${m.group} · query ${m.queryId} (${m.queryType})`, ...m.question);
      out.push(`answer: ${m.raw}`, `parsed number: ${m.value === null ? "none" : usd(m.value)}`);
      break;
    case "shop":
      out.push(...shopPlainLines(m));
      break;
    default:
      if (m.note) out.push(`(no ${m.env} view for this record: ${m.note})`);
      for (const f of m.fields) out.push(`${f.key}: ${clip(f.value, 200)}`);
  }
  return out;
}
