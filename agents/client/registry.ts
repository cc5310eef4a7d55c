/**
 * Client specs (`--client <specs>`): `sim:<name>` (a simulated client of agents/sim/client, its
 * persona in its name) or `openai:<model>` (an LLM plays the persona `--client-persona` names, with
 * the run's LLM settings, at `--client-base-url` when given). Each becomes the player of the shop's
 * `client` role beside every shopper.
 */
import { UserError } from "../../environments/kernel/errors.ts";
import type { Agent } from "../../environments/kernel/types.ts";
import { CLIENT_ANSWER } from "../../environments/shop/client/answer.ts";
import { PERSONAS } from "../../environments/shop/client/personas.ts";
import { PERSONA_NAMES, type PersonaName, SHOP_CLIENT } from "../../environments/shop/client/types.ts";
import { LlmAgent } from "../llm/agent.ts";
import { LlmSettingsSchema } from "../llm/settings.ts";
import { acceptedSettings, type LlmContext, splitSpecList } from "../registry.ts";
import { CLIENT_PRESETS, SimClient } from "../sim/client/index.ts";
import { LlmClient } from "./llm.ts";

export interface ClientEntry {
  /** The spec, as labels and records name the client. */
  label: string;
  identity: unknown;
  agent: Agent<unknown, unknown>;
  persona: PersonaName;
}

export function clientNames(): string[] {
  return [...Object.keys(CLIENT_PRESETS).map((n) => `sim:${n}`), "openai:<model>"];
}

/** `--client-persona`: one of the personas. */
export function parsePersona(value: string): PersonaName {
  const v = value.trim();
  if (!(PERSONA_NAMES as readonly string[]).includes(v))
    throw new UserError(
      `--client-persona: unknown persona "${value}"`,
      `the personas are ${PERSONA_NAMES.join(", ")}`,
    );
  return v as PersonaName;
}

/** Splits `--client`, refusing an empty list and repeated clients. */
export function splitClientSpecs(value: string): string[] {
  const specs = splitSpecList(value);
  if (specs.length === 0)
    throw new UserError("--client is empty", `name one or more of: ${clientNames().join(", ")}`);
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s)) throw new UserError(`client ${s} is named twice in --client`);
    seen.add(s);
  }
  return specs;
}

export function resolveClient(
  spec: string,
  llm: LlmContext,
  options: { persona?: PersonaName; baseUrl?: string } = {},
): ClientEntry {
  const i = spec.indexOf(":");
  const kind = i < 0 ? spec : spec.slice(0, i);
  const name = i < 0 ? "" : spec.slice(i + 1);
  if (kind === "sim") {
    const preset = CLIENT_PRESETS[name];
    if (preset) {
      return {
        label: spec,
        identity: { kind: "sim-client", preset: name, persona: preset.persona, faulty: preset.faulty },
        agent: new SimClient(spec, preset.persona, preset.faulty) as Agent<unknown, unknown>,
        persona: preset.persona.name,
      };
    }
  }
  if (kind === "openai" && name.length > 0) {
    const persona = options.persona ?? "terse";
    const parsed = LlmSettingsSchema.safeParse({
      ...llm.settings,
      model: name,
      answerMode: "text",
      ...(options.baseUrl ? { baseURL: options.baseUrl, replicas: undefined } : {}),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UserError(
        `client ${spec}: ${issue?.path.join(".") ?? ""} ${issue?.message ?? "invalid settings"}`,
      );
    }
    const { settings, identity } = acceptedSettings(spec, parsed.data, llm, CLIENT_ANSWER);
    const inner = new LlmAgent(
      spec,
      settings,
      { tools: undefined },
      {
        apiKey: llm.apiKey,
        cache: llm.cache,
        events: llm.events,
        role: SHOP_CLIENT,
      },
    );
    return {
      label: spec,
      identity: { kind: "llm-client", persona, ...identity },
      agent: new LlmClient(spec, PERSONAS[persona], inner) as Agent<unknown, unknown>,
      persona,
    };
  }
  throw new UserError(`unknown client "${spec}"`, `valid clients: ${clientNames().join(", ")}`);
}
