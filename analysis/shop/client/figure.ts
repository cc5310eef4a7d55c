/**
 * The client analysis's figure: regret against messages to the client, one point per cell (a
 * shopper working for a client) at its means, with the task-clustered intervals of both as bars —
 * what asking costs the client in messages against what not asking costs it in dollars. Colour
 * names the shopper, shape the client; legends list every name whole (labelLimit 0), and the
 * subtitle says how many episodes were left out.
 */
import type { VegaLiteSpec } from "../../report/svg.ts";
import type { ClientAnalysis } from "./analyze.ts";
import { leftOutNote } from "./tables.ts";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
const FONT = { font: "Helvetica, Arial, sans-serif", labelFontSize: 11, titleFontSize: 12 };

export interface RegretPoint {
  agent: string;
  shopper: string;
  client: string;
  messages: number;
  messagesLow: number;
  messagesHigh: number;
  regret: number;
  regretLow: number;
  regretHigh: number;
}

/** A point per cell with episodes (a bar collapses to its point where there is no interval). */
export function regretPoints(a: ClientAnalysis): RegretPoint[] {
  return a.cells.flatMap((c) => {
    const m = c.burden.messages;
    const r = c.regret;
    if (m.estimate === null || r.estimate === null) return [];
    return [
      {
        agent: c.agent,
        shopper: c.shopper,
        client: c.client,
        messages: m.estimate,
        messagesLow: m.low ?? m.estimate,
        messagesHigh: m.high ?? m.estimate,
        regret: r.estimate,
        regretLow: r.low ?? r.estimate,
        regretHigh: r.high ?? r.estimate,
      },
    ];
  });
}

/** The spec, or null without a cell to draw. */
export function regretMessagesChart(a: ClientAnalysis): VegaLiteSpec | null {
  const values = regretPoints(a);
  if (values.length === 0) return null;
  const level = Math.round(100 * a.level);
  const title = "Regret against messages to the client, per shopper and client";
  const left = leftOutNote(a);
  const subtitle = [
    `point: the means over a cell's episodes; bars: task-clustered ${level}% intervals`,
    "regret: the best admissible listing's surplus less the outcome's, in the client's dollars a night",
    `${a.episodes} episodes${left ? `; ${left}` : ""}`,
  ];
  // Room either side keeps the cells that never message (x = 0) off the axis line.
  const xs = values.flatMap((v) => [v.messagesLow, v.messagesHigh]);
  const [lo, hi] = [Math.min(0, ...xs), Math.max(1, ...xs)];
  const pad = Math.max(0.3, 0.05 * (hi - lo));
  const x = {
    field: "messages",
    type: "quantitative",
    title: "messages to the client per episode",
    scale: { domain: [lo - pad, hi + pad], nice: false },
    axis: { tickMinStep: 1 },
  };
  const y = { field: "regret", type: "quantitative", title: "regret ($ a night)", scale: { padding: 10 } };
  const color = {
    field: "shopper",
    type: "nominal",
    title: "shopper",
    sort: a.shoppers,
    legend: { orient: "bottom", labelLimit: 0, columns: 1 },
  };
  const shape = {
    field: "client",
    type: "nominal",
    title: "client",
    sort: a.clients,
    legend: { orient: "bottom", labelLimit: 0, columns: 1 },
  };
  const tooltip = [
    { field: "agent", type: "nominal" },
    { field: "messages", type: "quantitative", format: ".2f" },
    { field: "regret", type: "quantitative", format: "$.2f" },
  ];
  return {
    $schema: SCHEMA,
    title: { text: title, fontSize: 14, subtitle, subtitleFontSize: 10 },
    width: 560,
    height: 360,
    background: "white",
    config: { axis: FONT, legend: { ...FONT, titleFontSize: 11 }, view: { stroke: null } },
    data: { values },
    layer: [
      {
        mark: { type: "rule", strokeWidth: 1.5, opacity: 0.7 },
        encoding: { x, y: { ...y, field: "regretLow" }, y2: { field: "regretHigh" }, color },
      },
      {
        mark: { type: "rule", strokeWidth: 1.5, opacity: 0.7 },
        encoding: { y, x: { ...x, field: "messagesLow" }, x2: { field: "messagesHigh" }, color },
      },
      {
        // Open shapes: cells at the same means (a shopper that never asks is the same shopper for
        // every client) stay visible on top of each other.
        mark: { type: "point", filled: false, size: 110, strokeWidth: 2, opacity: 0.95 },
        encoding: { x, y, color, shape, tooltip },
      },
    ],
  };
}
