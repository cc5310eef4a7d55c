/**
 * The assessor's Agent Card: one skill, "audit the agent at this URL", with what its request holds
 * written down where a platform can read it — the skill's description and examples, and the request's
 * JSON Schema (environments, roles, and every option of each environment's run with its help text) as
 * the params of a card extension, since A2A cards have no field for a skill's input schema.
 *
 * Served in both protocol versions a client may ask for: A2A v1.0 (`A2A-Version: 1.0`: the SDK's own
 * JSON form of the card) and the v0.3 card many deployed clients still read (no header), which
 * names the same JSON-RPC endpoint and embeds the v1.0 interfaces.
 */
import { Command } from "commander";
import { addSharedOptions, visible } from "../commands/run.ts";
import { SERVED } from "../commands/served.ts";
import { ENVIRONMENT_CLIS } from "../run/index.ts";
import { VERSION } from "../version.ts";
import { ASSESSOR_SETS, flagName } from "./options.ts";
import { EXAMPLE } from "./request.ts";

/** The extension whose params are the request's JSON Schema. */
export const REQUEST_SCHEMA_URI = "urn:bazaar:audit-request:1";

export const SKILL_ID = "audit";

const DESCRIPTION =
  "bazaar, a simulator and audit bench for LLM shopping agents, as an assessor: it audits an A2A agent in one of its environments (tool-using shopping, bargaining, catalog choice, cue injection, stated preferences) and answers with the audit's estimates.";

const SKILL_DESCRIPTION = [
  "Audit the agent at a URL: send one message whose data part (or JSON text) is",
  '{"environment": <shop|bargain|choice|cue|elicit>, "participant": <the agent\'s A2A URL or card URL>, "role": <optional: the role it plays, e.g. bargain\'s buyer or seller>, "options": {<option of `bazaar run <environment>` by name, without -->: <value>}}',
  '(or an assessment request: {"participants": {<role>: <URL>}, "config": {"environment": …, "options": {…}}}).',
  "bazaar reads the participant's card and plays every trial of the design as one A2A task, the participant acting through the MCP tools its task's first message hands it.",
  "Progress comes as working status updates; the task's artifact holds the headline (text) and, as data, the run's `bazaar run --json` document and `bazaar analyze --json`'s for the same run.",
  "A request `bazaar run` would refuse fails with its words; a participant whose card cannot be read fails with the reason.",
  "Audits run one at a time, later ones queued; the same request again resumes the same run.",
].join(" ");

/** A flag's help text, for the schema. */
interface Flag {
  name: string;
  description: string;
}

/** The options a request may give an environment's run, with their help (what the assessor sets left out). */
async function optionsOf(env: string): Promise<Flag[]> {
  const envCli = ENVIRONMENT_CLIS.find((e) => e.name === env)!;
  const cmd = (await envCli.options())(addSharedOptions(new Command()));
  const shown = new Set(visible(cmd));
  const slots = new Set(Object.values(SERVED[env]!.roles).map((r) => r.option));
  return cmd.options
    .filter((o) => o.long && shown.has(o.long) && !slots.has(o.long))
    .map((o) => ({ name: flagName(o.long!), description: o.description }))
    .filter((f) => {
      const positive = f.name.startsWith("no-") ? f.name.slice(3) : f.name;
      return !(positive in ASSESSOR_SETS);
    });
}

const VALUE = {
  anyOf: [
    { type: "string" },
    { type: "number" },
    { type: "boolean", description: "true gives the flag; false its --no- form" },
    { type: "array", items: { type: ["string", "number"] }, description: "joined with commas" },
  ],
};

/** The JSON Schema of the request's data part (our shape). */
export async function requestSchema(): Promise<Record<string, unknown>> {
  const envs = Object.keys(SERVED).filter(
    (e) => e !== "market" && ENVIRONMENT_CLIS.some((c) => c.name === e),
  );
  const perEnv = await Promise.all(
    envs.map(async (env) => {
      const roles = Object.keys(SERVED[env]!.roles);
      const flags = await optionsOf(env);
      return {
        if: { properties: { environment: { const: env } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, a document, never awaited
        then: {
          properties: {
            role: { enum: [...roles, "agent"], default: roles[0] },
            options: {
              type: "object",
              properties: Object.fromEntries(
                flags.map((f) => [f.name, { description: f.description, ...VALUE }]),
              ),
              additionalProperties: false,
            },
          },
        },
      };
    }),
  );
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "bazaar audit request",
    type: "object",
    required: ["environment", "participant"],
    additionalProperties: false,
    properties: {
      environment: { enum: envs, description: "the environment of the audit (bazaar run <environment>)" },
      participant: {
        type: "string",
        format: "uri",
        description:
          "the agent under test: its A2A base URL (its card at /.well-known/agent-card.json) or its card's URL",
      },
      role: {
        type: "string",
        description:
          "the role the participant plays (default the environment's first: the shopper, bargain's buyer, elicit's respondent); its agent option is the assessor's to set",
      },
      options: {
        type: "object",
        description:
          "options of `bazaar run <environment>` by flag name without -- (kebab-case or camelCase), checked as the command checks them; the other agents of an audit are bazaar's own (rule:, sim:)",
      },
    },
    allOf: perEnv,
    examples: [EXAMPLE],
  };
}

/** Where the assessor is reached, and whether it asks for a bearer token. */
export interface CardSettings {
  /** The JSON-RPC endpoint's URL (the card's interface). */
  endpoint: string;
  token: boolean;
}

/** The card as the SDK's request handler takes it (v1.0). */
export async function assessorCard(s: CardSettings): Promise<import("@a2a-js/sdk").AgentCard> {
  const schema = await requestSchema();
  return {
    name: "bazaar assessor",
    description: DESCRIPTION,
    version: VERSION,
    supportedInterfaces: [
      { url: s.endpoint, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      { url: s.endpoint, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "0.3" },
    ],
    provider: undefined,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [
        {
          uri: REQUEST_SCHEMA_URI,
          description: "the JSON Schema of the audit skill's request (params.schema)",
          required: false,
          params: { schema },
        },
      ],
      extendedAgentCard: false,
    },
    securitySchemes: s.token
      ? {
          bearer: {
            scheme: {
              $case: "httpAuthSecurityScheme",
              value: { description: "serve-assessor --token", scheme: "Bearer", bearerFormat: "" },
            },
          },
        }
      : {},
    securityRequirements: s.token ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ["application/json", "text/plain"],
    defaultOutputModes: ["application/json", "text/plain"],
    skills: [
      {
        id: SKILL_ID,
        name: "Audit an agent",
        description: SKILL_DESCRIPTION,
        tags: ["assessment", "audit", "evaluation", "shopping", "bargaining"],
        examples: [
          JSON.stringify(EXAMPLE),
          JSON.stringify({
            environment: "bargain",
            participant: "https://agents.example.com/buyer",
            role: "buyer",
            options: { scenarios: 20, seller: "rule:boulware" },
          }),
          JSON.stringify({
            participants: { shopper: "http://127.0.0.1:9999" },
            config: { environment: "shop", options: { tasks: 20, client: "sim:terse" } },
          }),
        ],
        inputModes: ["application/json", "text/plain"],
        outputModes: ["application/json", "text/plain"],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

/** The card in v0.3's JSON (what the SDK's compatibility layer serves to clients without `A2A-Version`). */
export function legacyCard(card: import("@a2a-js/sdk").AgentCard, wire: unknown): Record<string, unknown> {
  const v1 = wire as { supportedInterfaces?: unknown; capabilities?: { extensions?: unknown[] } };
  const endpoint = card.supportedInterfaces[0]!.url;
  const token = Object.keys(card.securitySchemes).length > 0;
  return {
    name: card.name,
    description: card.description,
    version: card.version,
    url: endpoint,
    preferredTransport: "JSONRPC",
    protocolVersion: "0.3.0",
    capabilities: {
      streaming: card.capabilities?.streaming ?? false,
      pushNotifications: false,
      extensions: v1.capabilities?.extensions ?? [],
    },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: s.tags,
      examples: s.examples,
      inputModes: s.inputModes,
      outputModes: s.outputModes,
    })),
    ...(token
      ? {
          securitySchemes: {
            bearer: { type: "http", scheme: "bearer", description: "serve-assessor --token" },
          },
          security: [{ bearer: [] }],
        }
      : {}),
    supportsAuthenticatedExtendedCard: false,
    supportedInterfaces: v1.supportedInterfaces,
  };
}
