import { BargainActionSchema } from "../../environments/bargain/actions.ts";
import { BARGAIN_ANSWER } from "../../environments/bargain/answer.ts";
import { PAIR_SEPARATOR } from "../../environments/bargain/record.ts";
import type { BargainRole, BargainView } from "../../environments/bargain/types.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import type { Agent, AgentEntry } from "../../environments/kernel/types.ts";
import { LlmSettingsSchema } from "../llm/settings.ts";
import { acceptedSettings, type LlmContext, resolveLlmAgent, splitSpecList } from "../registry.ts";
import { LlmLikeNegotiator, type LlmLikeParams } from "./llm-like.ts";
import { MeteredAgent } from "./metered.ts";
import { LlmNarrator, NARRATOR_ANSWER, TemplateNarrator } from "./narrator.ts";
import { type OfferSchedule, PAPER_SCHEDULE, scheduleText } from "./offer-generator.ts";
import { OgNarratorBuyer } from "./og-narrator.ts";
import { LLM_LIKE_PARAM_NAMES, type RoleParams, RULE_PRESETS, SIM_PRESETS } from "./presets.ts";

/** The paper's narrator sampling temperature. */
export const NARRATOR_TEMPERATURE = 0.3;

export interface BargainAgentOptions {
  /** The OG-Narrator's offer schedule (the paper's linear 0.5 → 1.0 by default). */
  ogSchedule?: OfferSchedule;
}

/** One side of a pairing: what it is called, what enters trial keys, and the policy. */
export interface ResolvedPlayer {
  label: string;
  identity: unknown;
  agent: Agent<unknown, unknown>;
}

/** The agent names a role can take, for help and error messages. */
export function bargainAgentNames(role: BargainRole): string[] {
  return [
    ...(role === "buyer" ? ["og-narrator", "og-narrator:openai:<model>"] : []),
    ...Object.keys(RULE_PRESETS).map((n) => `rule:${n}`),
    ...Object.keys(SIM_PRESETS).map((n) => `sim:${n}`),
    "openai:<model>",
  ];
}

function unknown(spec: string, role: BargainRole, why = ""): UserError {
  return new UserError(
    `unknown ${role} "${spec}"${why}`,
    `valid ${role}s: ${bargainAgentNames(role).join(", ")} (sim agents take overrides: sim:llm/anchoring=0.8/noise=0.4)`,
  );
}

/** `sim:<preset>[/<param>=<value>…]`: a simulated LLM-like negotiator with some parameters changed. */
function simulated(spec: string, rest: string, role: BargainRole): ResolvedPlayer {
  const [name, ...overrides] = rest.split("/");
  const preset = SIM_PRESETS[name ?? ""];
  if (!preset) throw unknown(spec, role);
  const params: LlmLikeParams = { ...(preset.params as unknown as RoleParams)[role] };
  for (const o of overrides) {
    const [key, value, extra] = o.split("=");
    const x = Number(value);
    if (
      !LLM_LIKE_PARAM_NAMES.includes(key as keyof LlmLikeParams) ||
      extra !== undefined ||
      !Number.isFinite(x) ||
      x < 0
    ) {
      throw new UserError(
        `agent ${spec}: "${o}" is not a parameter override`,
        `write <param>=<non-negative number>, with param one of ${LLM_LIKE_PARAM_NAMES.join(", ")}`,
      );
    }
    params[key as keyof LlmLikeParams] = x;
  }
  return {
    label: spec,
    identity: { kind: "sim-llm-like", preset: name, role, params },
    agent: new LlmLikeNegotiator(spec, params) as Agent<unknown, unknown>,
  };
}

function ogNarrator(
  spec: string,
  rest: string,
  role: BargainRole,
  llm: LlmContext,
  options: BargainAgentOptions,
): ResolvedPlayer {
  if (role !== "buyer") throw unknown(spec, role, ": the OG-Narrator plays only the buyer");
  const schedule = options.ogSchedule ?? PAPER_SCHEDULE;
  if (rest === "") {
    const narrator = new TemplateNarrator();
    return {
      label: spec,
      identity: { kind: "og-narrator", schedule: scheduleText(schedule), narrator: narrator.identity },
      agent: new OgNarratorBuyer(spec, schedule, narrator) as Agent<unknown, unknown>,
    };
  }
  const model = rest.startsWith("openai:") ? rest.slice("openai:".length) : "";
  if (model === "") throw unknown(spec, role, ": the narrator must be openai:<model>");
  const parsed = LlmSettingsSchema.safeParse({
    ...llm.settings,
    model,
    temperature: NARRATOR_TEMPERATURE,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(
      `agent ${spec}: ${issue?.path.join(".") ?? ""} ${issue?.message ?? "invalid settings"}`,
    );
  }
  const { settings } = acceptedSettings(spec, parsed.data, llm, NARRATOR_ANSWER);
  const narrator = new LlmNarrator(settings, { apiKey: llm.apiKey, cache: llm.cache, events: llm.events });
  return {
    label: spec,
    identity: { kind: "og-narrator", schedule: scheduleText(schedule), narrator: narrator.identity },
    agent: new OgNarratorBuyer(spec, schedule, narrator) as Agent<unknown, unknown>,
  };
}

/** Resolves one agent spec for one role. */
export function resolveBargainPlayer(
  spec: string,
  role: BargainRole,
  llm: LlmContext = { settings: {} },
  options: BargainAgentOptions = {},
): ResolvedPlayer {
  const outside = llm.outside?.(spec, "bargain", role);
  if (outside) return outside;
  const i = spec.indexOf(":");
  const [kind, rest] = i < 0 ? [spec, ""] : [spec.slice(0, i), spec.slice(i + 1)];
  if (kind === "og-narrator") return ogNarrator(spec, rest, role, llm, options);
  if (kind === "rule") {
    const preset = RULE_PRESETS[rest];
    if (!preset) throw unknown(spec, role);
    return {
      label: spec,
      identity: { kind: "rule", preset: rest, params: preset.params },
      agent: preset.make(spec) as Agent<unknown, unknown>,
    };
  }
  if (kind === "sim") return simulated(spec, rest, role);
  if (kind === "openai" && rest.length > 0) {
    const entry = resolveLlmAgent(spec, rest, role, BargainActionSchema, llm, BARGAIN_ANSWER);
    return { label: spec, identity: entry.identity, agent: entry.players[role]! };
  }
  throw unknown(spec, role);
}

/** Splits a comma-separated `--buyer`/`--seller` value, rejecting empty and repeated names. */
export function splitSpecs(value: string, option: string): string[] {
  const specs = splitSpecList(value);
  if (specs.length === 0) throw new UserError(`--${option} is empty`, "name one or more agents");
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s)) throw new UserError(`${s} is named twice in --${option}`);
    seen.add(s);
  }
  return specs;
}

/**
 * Every buyer × seller pairing as one run agent, labelled `<buyer> vs <seller>`, each side wrapped
 * to record its time and tokens per message. Buyers come first in the order given, so a run's
 * trials for one scenario are grouped by buyer.
 */
export function resolveBargainPairs(
  buyers: readonly string[],
  sellers: readonly string[],
  llm: LlmContext = { settings: {} },
  options: BargainAgentOptions = {},
): AgentEntry[] {
  const b = buyers.map((s) => resolveBargainPlayer(s, "buyer", llm, options));
  const s = sellers.map((x) => resolveBargainPlayer(x, "seller", llm, options));
  const metered = new Map<Agent<unknown, unknown>, Agent<unknown, unknown>>();
  const wrap = (a: Agent<unknown, unknown>) => {
    let m = metered.get(a);
    if (!m) {
      m = new MeteredAgent(a);
      metered.set(a, m);
    }
    return m;
  };
  return b.flatMap((buyer) =>
    s.map((seller) => ({
      label: `${buyer.label}${PAIR_SEPARATOR}${seller.label}`,
      identity: { buyer: buyer.identity, seller: seller.identity },
      players: { buyer: wrap(buyer.agent), seller: wrap(seller.agent) } as Record<
        BargainRole,
        Agent<BargainView, unknown>
      >,
    })),
  );
}
