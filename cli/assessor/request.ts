/**
 * What an audit request says (issue 33 item 4): the environment, the participant's A2A URL (its base
 * URL or its card's), the role it plays there, and the options of `bazaar run <environment>` that
 * set the rest of the design. The message carries it as a data part
 *
 *   {"environment": "shop", "participant": "http://agent:9999", "role": "shopper", "options": {"tasks": 3}}
 *
 * or as the request evaluation platforms that assess over A2A send their assessors (AgentBeats'
 * EvalRequest: participants by role, a free config), which says the same thing:
 *
 *   {"participants": {"shopper": "http://agent:9999"}, "config": {"environment": "shop", "options": {…}}}
 *
 * Either may also come as the JSON text of a text part (platforms' clients often send text only).
 * Reading it checks its shape; what the options mean is `run`'s to check (options.ts).
 */
import { UserError } from "../../environments/kernel/errors.ts";

/** An option's value as a message may give it (a list is joined with commas, as `run` takes lists). */
export type OptionValue = string | number | boolean | readonly (string | number)[];

export interface AuditRequest {
  environment: string;
  /** The participant's URL, without `a2a:`. */
  participant: string;
  /** The role it plays; undefined: the environment's first (the agent under test, e.g. shop's shopper). */
  role?: string;
  options: Record<string, OptionValue>;
}

/** The role names a request may use for "the agent under test", whatever the environment calls it. */
export const ANY_ROLE = new Set(["agent", "participant"]);

const OURS = new Set(["environment", "participant", "role", "options"]);
const CONFIG = new Set(["environment", "role", "options"]);

/** An example request, for the card and for hints. */
export const EXAMPLE: AuditRequest = {
  environment: "shop",
  participant: "http://127.0.0.1:9999",
  options: { tasks: 3, replicates: 1, families: "needle,infeasible" },
};

const HINT = `send a data part such as ${JSON.stringify(EXAMPLE)}`;

/** A part of a message as the SDK gives it (only what this reads). */
export interface PartLike {
  content?: { $case: string; value: unknown };
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  x !== null && typeof x === "object" && !Array.isArray(x);

/** The JSON objects a message holds: its data parts, and its text parts that are a JSON object. */
function candidates(parts: readonly PartLike[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const p of parts) {
    if (p.content?.$case === "data" && isObject(p.content.value)) out.push(p.content.value);
    if (p.content?.$case === "text" && typeof p.content.value === "string") {
      const text = p.content.value.trim();
      if (!text.startsWith("{")) continue;
      try {
        const v = JSON.parse(text) as unknown;
        if (isObject(v)) out.push(v);
      } catch {
        throw new UserError(`the message's text starts like JSON but is not: ${preview(text)}`, HINT);
      }
    }
  }
  return out;
}

function preview(text: string): string {
  const t = text.replace(/\s+/g, " ");
  return t.length > 80 ? `${t.slice(0, 80)}…` : t;
}

function text(where: string, x: unknown): string {
  if (typeof x !== "string" || x.trim() === "")
    throw new UserError(`${where}: expected a non-empty string`, HINT);
  return x.trim();
}

function optionsOf(where: string, x: unknown): Record<string, OptionValue> {
  if (x === undefined) return {};
  if (!isObject(x))
    throw new UserError(
      `${where}: expected an object of run options by name`,
      `e.g. {"tasks": 3, "replicates": 1}`,
    );
  const out: Record<string, OptionValue> = {};
  for (const [name, value] of Object.entries(x)) {
    const ok =
      typeof value === "string" ||
      (typeof value === "number" && Number.isFinite(value)) ||
      typeof value === "boolean" ||
      (Array.isArray(value) &&
        value.every((v) => typeof v === "string" || (typeof v === "number" && Number.isFinite(v))));
    if (!ok)
      throw new UserError(
        `${where}.${name}: ${JSON.stringify(value)} is no option value`,
        "an option's value is a string, a number, true/false (a flag), or a list of strings or numbers",
      );
    out[name] = value as OptionValue;
  }
  return out;
}

function unknownKeys(where: string, o: Record<string, unknown>, known: Set<string>): void {
  const extra = Object.keys(o).filter((k) => !known.has(k));
  if (extra.length > 0)
    throw new UserError(
      `${where}: unknown field${extra.length === 1 ? "" : "s"} ${extra.map((k) => `"${k}"`).join(", ")}`,
      `the fields are ${[...known].join(", ")}`,
    );
}

function fromOurs(o: Record<string, unknown>): AuditRequest {
  unknownKeys("the audit request", o, OURS);
  return {
    environment: text("environment", o.environment),
    participant: stripKind(text("participant", o.participant)),
    ...(o.role === undefined ? {} : { role: text("role", o.role) }),
    options: optionsOf("options", o.options),
  };
}

function fromEvalRequest(o: Record<string, unknown>): AuditRequest {
  unknownKeys("the assessment request", o, new Set(["participants", "config"]));
  if (!isObject(o.participants))
    throw new UserError("participants: expected an object of participant URLs by role", HINT);
  const roles = Object.entries(o.participants);
  if (roles.length !== 1)
    throw new UserError(
      `participants: an audit has one participant, got ${roles.length}`,
      "name the agent under test alone; the other agents of the design are options (e.g. bargain's seller)",
    );
  const [role, url] = roles[0]!;
  const config = o.config ?? {};
  if (!isObject(config)) throw new UserError("config: expected an object", HINT);
  unknownKeys("config", config, CONFIG);
  const configRole = config.role === undefined ? undefined : text("config.role", config.role);
  if (configRole !== undefined && !ANY_ROLE.has(role) && configRole !== role)
    throw new UserError(`participants names the role "${role}" and config.role "${configRole}"`, HINT);
  const named = configRole ?? role;
  return {
    environment: text("config.environment", config.environment),
    participant: stripKind(text(`participants.${role}`, url)),
    ...(ANY_ROLE.has(named) ? {} : { role: named }),
    options: optionsOf("config.options", config.options),
  };
}

/** `a2a:<url>` is what `run` takes; a request may name the URL either way. */
function stripKind(url: string): string {
  return url.startsWith("a2a:") ? url.slice(4).trim() : url;
}

/** The audit request in a message's parts, or a UserError saying what is wrong with it. */
export function readAuditRequest(parts: readonly PartLike[]): AuditRequest {
  const found = candidates(parts);
  const ours = found.find((o) => "environment" in o || "participant" in o);
  if (ours) return fromOurs(ours);
  const theirs = found.find((o) => "participants" in o);
  if (theirs) return fromEvalRequest(theirs);
  throw new UserError(
    found.length > 0
      ? "the message holds JSON, but no audit request (no environment, participant or participants)"
      : "the message holds no audit request",
    HINT,
  );
}
