/**
 * A model endpoint's limiter as the live views and the run summary show it: requests in flight
 * against the window the adaptive limiter allows now, and the rate limit it found. Pure.
 */
import type { EndpointLimits } from "../../agents/llm/gate.ts";
import { count, tokens, wrap } from "./format.ts";

/**
 * What the views read of an endpoint: `endpointLimits()`'s rows (agents/llm/gate.ts). A type only,
 * so the views load no model client.
 */
export type EndpointRow = EndpointLimits;

/** The rate limit found, in words: "600 req/min, 150k tok/min (the server's headers)". */
function foundText(e: EndpointRow): string {
  const f = e.found;
  if (!f) return e.adaptive ? "no rate limit met yet" : "";
  const parts = [
    ...(f.requestsPerMinute === undefined ? [] : [`${count(f.requestsPerMinute)} req/min`]),
    ...(f.tokensPerMinute === undefined ? [] : [`${tokens(f.tokensPerMinute)} tok/min`]),
  ];
  return `limit ${parts.join(", ")} (${f.source === "headers" ? "the server's headers" : "from its 429s"})`;
}

/** "12 in flight of 16 (adaptive, ceiling 64)" or, fixed, "12 in flight of 64 (fixed)". */
function concurrencyText(e: EndpointRow): string {
  return e.adaptive
    ? `${count(e.inFlight)} in flight of ${count(e.window)} (adaptive, ceiling ${count(e.ceiling)})`
    : `${count(e.inFlight)} in flight of ${count(e.ceiling)} (fixed)`;
}

/** The parts of an endpoint's live line, its name first (the views wrap between parts). */
export function endpointParts(e: EndpointRow): string[] {
  return [
    `endpoint ${e.model} at ${e.url}`,
    concurrencyText(e),
    ...(e.pacedPerMinute === null ? [] : [`paced ${count(e.pacedPerMinute)}/min`]),
    foundText(e),
    `429s ${count(e.throttled)} of ${count(e.requests)}`,
  ].filter((p) => p !== "");
}

/**
 * An endpoint's live line in lines of at most `width`: parts joined by " · " and carried to the next
 * line whole where they do not fit, a part wider than a line broken over lines — never cut (a cut
 * model name or URL is a bug).
 */
export function endpointLines(e: EndpointRow, width: number): string[] {
  const w = Math.max(8, width);
  const out: string[] = [];
  let line = "";
  for (const part of endpointParts(e)) {
    if (line && line.length + 3 + part.length <= w) line += ` · ${part}`;
    else {
      if (line) out.push(line);
      const pieces = part.length <= w ? [part] : wrap(part, w);
      out.push(...pieces.slice(0, -1));
      line = pieces.at(-1)!;
    }
  }
  if (line) out.push(line);
  return out;
}

/** Endpoints the live area lists at most (the rest are counted in one line). */
export const LIVE_ENDPOINTS = 3;

/** The live area's lines for the endpoints, each at most `width` wide. */
export function endpointsLines(endpoints: readonly EndpointRow[], width: number): string[] {
  const listed = endpoints.slice(0, LIVE_ENDPOINTS);
  const out = listed.flatMap((e) => endpointLines(e, width));
  const rest = endpoints.length - listed.length;
  if (rest > 0) out.push(...wrap(`… ${count(rest)} more endpoints (the run summary lists every one)`, width));
  return out;
}

/** The run summary's line for an endpoint, as it stood when the run ended. */
export function endpointSummaryLine(e: EndpointRow): string {
  const window = e.adaptive
    ? `concurrency ${count(e.window)} at the end (adaptive, ceiling ${count(e.ceiling)})`
    : `concurrency ${count(e.ceiling)} (fixed)`;
  const share = e.requests > 0 ? ` (${((100 * e.throttled) / e.requests).toFixed(1)}%)` : "";
  const found = foundText(e);
  return `endpoint ${e.model} at ${e.url}: ${window}${found ? `; ${found}` : ""}; ${count(e.requests)} requests, ${count(e.throttled)} answered 429${share}`;
}
