/**
 * The client auditor (specs/client.md, "Client faults"): every reply of a client is read
 * (`reader.ts`) and checked by rules against its profile and persona. A reply
 * - contradicts the profile when it states a requirement other than the profile's (or no
 *   preference where the profile has one), or a trade-off weight off by more than max($2, 10%);
 * - reveals what the persona keeps back when it states a requirement on a topic the message did
 *   not ask about, that the persona would not volunteer to it, and that was not said before;
 * - invents a requirement when it states one on a topic where the profile has none, or on
 *   something the shop does not know (a pool, parking);
 * - speaks as the assistant, or ends the conversation, by its words;
 * - is silent when it says nothing.
 * The machine's own line (patience) is never audited: the client did not say it.
 */
import { formatUsd } from "../../kernel/money.ts";
import type { HardConstraints } from "../types.ts";
import type { Persona } from "./personas.ts";
import type { ClientReading } from "./reader.ts";
import { isOpenQuestion, topicsAsked } from "./topics.ts";
import type { ClientFault, ClientUtility, RequirementTopic, Topic } from "./types.ts";

export interface AuditContext {
  requirements: HardConstraints;
  utility: ClientUtility;
  persona: Persona;
  /** The shopper's message the reply answers. */
  message: string;
  /** Topics the client had stated before this reply. */
  known: readonly Topic[];
  /** The catalog's areas and neighborhoods (naming one asks about the area). */
  places: readonly string[];
}

/** The profile's requirement on a topic, in the reader's terms (null: none). */
function required(t: RequirementTopic, c: HardConstraints): number | string[] | boolean | null {
  switch (t) {
    case "price":
      return c.maxPrice;
    case "stars":
      return c.minStars;
    case "area":
      return c.areas === null ? null : [...c.areas].sort();
    default:
      return c.amenities.includes(t) ? true : null;
  }
}

/** The reading's statement on a topic (null: no preference; undefined: not spoken to). */
function stated(t: RequirementTopic, r: ClientReading): number | string[] | boolean | null | undefined {
  switch (t) {
    case "price":
      return r.price;
    case "stars":
      return r.stars;
    case "area":
      return r.areas;
    default: {
      const v = r[t];
      return v === undefined ? undefined : v ? true : null;
    }
  }
}

function show(v: number | string[] | boolean | null, t: RequirementTopic): string {
  if (v === null) return "no preference";
  if (v === true) return "a must";
  if (Array.isArray(v)) return v.join(" or ");
  return t === "price" ? formatUsd(v as number) : `${v} stars`;
}

function same(a: number | string[] | boolean | null, b: number | string[] | boolean | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function near(said: number, truth: number): boolean {
  return Math.abs(said - truth) <= Math.max(2, 0.1 * truth);
}

function tradeoffFaults(r: ClientReading, u: ClientUtility): string[] {
  const t = r.tradeoff;
  if (!t) return [];
  const out: string[] = [];
  if (t.review !== undefined && !near(t.review, u.review))
    out.push(`a rating point worth ${formatUsd(t.review)}, the profile's ${formatUsd(u.review)}`);
  if (t.stars !== undefined && !near(t.stars, u.stars))
    out.push(`a star worth ${formatUsd(t.stars)}, the profile's ${formatUsd(u.stars)}`);
  for (const [a, w] of Object.entries(t.amenities))
    if (!near(w, u.amenities[a as keyof ClientUtility["amenities"]]))
      out.push(
        `${a} worth ${formatUsd(w)}, the profile's ${formatUsd(u.amenities[a as keyof ClientUtility["amenities"]])}`,
      );
  for (const [a, w] of Object.entries(t.areas))
    if (!near(w, u.areas[a] ?? 0))
      out.push(`${a} worth ${formatUsd(w)}, the profile's ${formatUsd(u.areas[a] ?? 0)}`);
  return out;
}

const REQUIREMENTS: readonly RequirementTopic[] = [
  "price",
  "stars",
  "area",
  "free_cancellation",
  "breakfast",
];

/** The faults of one client reply (empty when it has none). */
export function auditReply(text: string, r: ClientReading, ctx: AuditContext): ClientFault[] {
  if (text.trim() === "") return [{ kind: "silent", detail: "an empty reply" }];
  const faults: ClientFault[] = [];
  const asked = new Set<Topic>(topicsAsked(ctx.message, ctx.places));
  if (isOpenQuestion(ctx.message, ctx.places)) for (const t of ctx.persona.volunteers) asked.add(t);
  const known = new Set(ctx.known);
  for (const t of REQUIREMENTS) {
    const said = stated(t, r);
    if (said === undefined) continue;
    const truth = required(t, ctx.requirements);
    if (truth === null && said !== null) {
      faults.push({ kind: "invents", detail: `${t}: said ${show(said, t)}, the profile has no requirement` });
      continue;
    }
    if (!same(said, truth)) {
      faults.push({
        kind: "contradicts",
        detail: `${t}: said ${show(said, t)}, the profile's is ${show(truth, t)}`,
      });
      continue;
    }
    if (truth !== null && !asked.has(t) && !known.has(t))
      faults.push({ kind: "reveals", detail: `${t}: said ${show(said, t)} unasked` });
  }
  for (const d of tradeoffFaults(r, ctx.utility))
    faults.push({ kind: "contradicts", detail: `trade-off: ${d}` });
  for (const u of r.unknownRequirements)
    faults.push({ kind: "invents", detail: `requires ${u}, which the profile does not` });
  if (r.asAssistant !== null) faults.push({ kind: "as-assistant", detail: `"${r.asAssistant}"` });
  if (r.ends !== null) faults.push({ kind: "ends-early", detail: `"${r.ends}"` });
  return faults;
}
