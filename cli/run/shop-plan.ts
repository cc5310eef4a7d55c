import path from "node:path";
import { z } from "zod";
import { type OfferSchedule, parseSchedule } from "../../agents/bargain/offer-generator.ts";
import { ogShopEntry } from "../../agents/bargain/og-shop.ts";
import { resolveBargainPlayer, splitSpecs } from "../../agents/bargain/registry.ts";
import {
  type ClientEntry,
  parsePersona,
  resolveClient,
  splitClientSpecs,
} from "../../agents/client/registry.ts";
import { type LlmContext, outsideEntry, resolveLlmAgent, splitAgentSpecs } from "../../agents/registry.ts";
import {
  DEFAULT_SHOP_AGENTS,
  HAGGLER_PRESETS,
  SHOP_PRESETS,
  TALKER_PRESETS,
} from "../../agents/sim/shop/index.ts";
import { DEFAULT_HOTEL_POOL, type Hotel, loadHotelPool } from "../../datasets/hotels/index.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { stableHash } from "../../environments/kernel/hash.ts";
import type { AgentEntry } from "../../environments/kernel/types.ts";
import { SHOP_SELLER, shopSurfaceName } from "../../environments/registry.ts";
import { planRun, type RunPlan } from "../../environments/runner/plan.ts";
import { shopActionSchema } from "../../environments/shop/actions.ts";
import { SHOP_ANSWER } from "../../environments/shop/answer.ts";
import { SHOP_CLIENT } from "../../environments/shop/client/types.ts";
import {
  buildShopTasks,
  DESCRIPTION_MODES,
  type DescriptionMode,
  parseShopDesign,
} from "../../environments/shop/design.ts";
import { shopEnvironmentWith } from "../../environments/shop/environment.ts";
import { clientAgentLabel } from "../../environments/shop/record.ts";
import {
  DESCRIPTION_ARMS,
  type DescriptionArm,
  SHOP_SHOPPER,
  sellerRole,
  TASK_FAMILIES,
  type TaskFamily,
} from "../../environments/shop/types.ts";
import { parseOption, positiveInt } from "../options.ts";
import { DEFAULT_SELLER_NEGOTIATOR, shopAgentNames } from "./shop.ts";
import { type CommonRunOptions, seedValue } from "./types.ts";

interface ShopOptions extends CommonRunOptions {
  agent?: string;
  replicates: string;
  pool?: string;
  tasks?: string;
  families?: string;
  listings?: string;
  pageSize?: string;
  maxSteps?: string;
  maxInvalid?: string;
  sponsoredRate?: string;
  endorsementRate?: string;
  scarcityRate?: string;
  discountRate?: string;
  admissible?: string;
  descriptions?: string;
  arms?: string;
  armRate?: string;
  negotiable?: string;
  sellerNegotiator?: string;
  offerRounds?: string;
  ogSchedule?: string;
  client?: string;
  clientPersona?: string;
  clientBaseUrl?: string;
}

const rate = z.coerce
  .number({ error: "expected a number" })
  .refine(Number.isFinite, "expected a number")
  .pipe(z.number().min(0, "expected a rate from 0 to 1").max(1, "expected a rate from 0 to 1"));

/**
 * `sim:<preset>` (a simulated shopper with known parameters), `openai:<model>` (the LLM agent in a
 * tool loop) or, with offers, `og-narrator[:openai:<model>]` (the OG-Narrator buyer, which haggles
 * and so shops only where listings take offers); with `offers`, the LLM agent is given the offer
 * tool too.
 */
export function resolveShopAgent(
  spec: string,
  llm?: LlmContext,
  offers = false,
  ogSchedule?: OfferSchedule,
  client = false,
): AgentEntry {
  // An agent from outside gets the shop's tools: `offer` where listings take offers, `message_client` with a client.
  const outside = outsideEntry(spec, shopSurfaceName({ offers, client }), SHOP_SHOPPER, llm);
  if (outside) return outside;
  const i = spec.indexOf(":");
  const kind = i < 0 ? spec : spec.slice(0, i);
  const name = i < 0 ? "" : spec.slice(i + 1);
  if (kind === "sim") {
    const preset = SHOP_PRESETS[name] ?? HAGGLER_PRESETS[name] ?? TALKER_PRESETS[name];
    if (preset) {
      return {
        label: spec,
        identity: { kind: "sim-shop", preset: name, params: preset.params },
        players: { [SHOP_SHOPPER]: preset.make(spec) as never },
      };
    }
  }
  if (kind === "og-narrator") {
    if (!offers)
      throw new UserError(
        `agent ${spec}: the OG-Narrator haggles, so it shops only where listings take offers`,
        "add --negotiable <share> (e.g. --negotiable 0.5), or leave this agent out",
      );
    return ogShopEntry(spec, llm ?? { settings: {} }, { ogSchedule });
  }
  if (kind === "openai" && name.length > 0) {
    return resolveLlmAgent(
      spec,
      name,
      SHOP_SHOPPER,
      shopActionSchema({ offers, client }),
      llm ?? { settings: {} },
      SHOP_ANSWER,
    );
  }
  throw new UserError(
    `unknown agent "${spec}" for shop runs`,
    `valid agents: ${shopAgentNames().join(", ")}`,
  );
}

/** `open,needle` (equal shares) or `open:3,needle:1` (relative shares). */
export function parseFamilies(value: string): Partial<Record<TaskFamily, number>> {
  const out: Partial<Record<TaskFamily, number>> = {};
  const parts = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0)
    throw new UserError("--families is empty", `name some of: ${TASK_FAMILIES.join(", ")}`);
  for (const part of parts) {
    const [name, weight] = part.split(":") as [string, string | undefined];
    if (!(TASK_FAMILIES as readonly string[]).includes(name)) {
      throw new UserError(
        `--families: unknown task family "${name}"`,
        `the families are ${TASK_FAMILIES.join(", ")}`,
      );
    }
    if (out[name as TaskFamily] !== undefined) throw new UserError(`--families names ${name} twice`);
    const w = weight === undefined ? 1 : Number(weight);
    if (!Number.isFinite(w) || w < 0) {
      throw new UserError(
        `--families: the share of ${name} must be a number ≥ 0, got "${weight}"`,
        "e.g. --families open:3,needle:1",
      );
    }
    out[name as TaskFamily] = w;
  }
  return out;
}

/** `neutral,injection-basic`: arms of DESCRIPTION_ARMS, each at most once. */
export function parseArms(value: string): DescriptionArm[] {
  const parts = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0)
    throw new UserError("--arms is empty", `name some of: ${DESCRIPTION_ARMS.join(", ")}`);
  const out: DescriptionArm[] = [];
  for (const name of parts) {
    if (!(DESCRIPTION_ARMS as readonly string[]).includes(name)) {
      throw new UserError(`--arms: unknown arm "${name}"`, `the arms are ${DESCRIPTION_ARMS.join(", ")}`);
    }
    if (out.includes(name as DescriptionArm)) throw new UserError(`--arms names ${name} twice`);
    out.push(name as DescriptionArm);
  }
  return out;
}

function parseDescriptions(o: ShopOptions): {
  descriptions?: DescriptionMode;
  arms?: DescriptionArm[];
  armRate?: number;
} {
  const mode = o.descriptions?.trim();
  if (mode !== undefined && !(DESCRIPTION_MODES as readonly string[]).includes(mode)) {
    throw new UserError(
      `--descriptions: expected ${DESCRIPTION_MODES.join(" or ")}, got "${o.descriptions}"`,
      "neutral: every description from the templates; battery: description arms randomized",
    );
  }
  if (mode !== "battery" && (o.arms !== undefined || o.armRate !== undefined)) {
    throw new UserError(
      `${o.arms !== undefined ? "--arms" : "--arm-rate"} needs --descriptions battery`,
      "add --descriptions battery, or leave the arm options out",
    );
  }
  return {
    descriptions: mode as DescriptionMode | undefined,
    arms: o.arms === undefined ? undefined : parseArms(o.arms),
    armRate: o.armRate === undefined ? undefined : parseOption("arm-rate", rate, o.armRate),
  };
}

/** `3-8`: the fewest and most admissible listings of an open task. */
function parseAdmissible(value: string): { minAdmissible: number; maxAdmissible: number } {
  const m = /^(\d+)-(\d+)$/.exec(value.trim());
  if (!m) throw new UserError(`--admissible: expected <min>-<max>, e.g. 3-8 (got "${value}")`);
  return { minAdmissible: Number(m[1]), maxAdmissible: Number(m[2]) };
}

/**
 * `--negotiable` and `--seller-negotiator`: the seller negotiators' specs in role order (seller-1
 * first), or none for a plain shop (no share, or a share of 0).
 */
export function parseNegotiators(o: { negotiable?: string; sellerNegotiator?: string }): string[] {
  const share = o.negotiable === undefined ? 0 : parseOption("negotiable", rate, o.negotiable);
  if (share === 0) {
    if (o.sellerNegotiator !== undefined)
      throw new UserError(
        "--seller-negotiator needs --negotiable with a share above 0",
        "add e.g. --negotiable 0.5, or leave --seller-negotiator out",
      );
    return [];
  }
  return splitSpecs(o.sellerNegotiator ?? DEFAULT_SELLER_NEGOTIATOR, "seller-negotiator");
}

/**
 * Each shopper entry with the run's seller negotiators beside it, as roles seller-1…k: every buyer
 * meets the same sellers on the same tasks (the OG-vs-plain comparison is paired on them). The
 * identity names the sellers, so a run with other sellers is another run.
 */
export function withSellerNegotiators(
  buyers: readonly AgentEntry[],
  specs: readonly string[],
  llm: LlmContext,
): AgentEntry[] {
  // An agent from outside answers each listing's negotiation in a conversation of its own (its own
  // MCP session, exec: process or graph run), with that negotiation's outcome at the end.
  const sellers = specs.map(
    (s) => llm.outside?.(s, SHOP_SELLER, "seller") ?? resolveBargainPlayer(s, "seller", llm),
  );
  const players = Object.fromEntries(sellers.map((s, i) => [sellerRole(i + 1), s.agent]));
  const sellerIds = sellers.map((s) => s.identity);
  return buyers.map((b) => ({
    label: b.label,
    identity: { shopper: b.identity, sellers: sellerIds },
    // A shopper with a client seeds as it would without one, against the same sellers.
    ...(b.seedIdentity === undefined
      ? {}
      : { seedIdentity: { shopper: b.seedIdentity, sellers: sellerIds } }),
    players: { ...b.players, ...players },
  }));
}

/** `--client`, `--client-persona`, `--client-base-url`: the run's clients (none without `--client`). */
export function parseClients(
  o: { client?: string; clientPersona?: string; clientBaseUrl?: string },
  llm: LlmContext,
): ClientEntry[] {
  if (o.client === undefined) {
    const stray =
      o.clientPersona !== undefined
        ? "--client-persona"
        : o.clientBaseUrl !== undefined
          ? "--client-base-url"
          : null;
    if (stray)
      throw new UserError(`${stray} needs --client`, "add e.g. --client openai:<model>, or leave it out");
    return [];
  }
  const specs = splitClientSpecs(o.client);
  const llmClients = specs.some((s) => s.startsWith("openai:"));
  if (!llmClients && (o.clientPersona !== undefined || o.clientBaseUrl !== undefined))
    throw new UserError(
      `${o.clientPersona !== undefined ? "--client-persona" : "--client-base-url"} applies to openai: clients, and --client names none`,
      "a sim: client's persona is in its name (sim:terse, sim:partial, sim:complete)",
    );
  if (o.clientBaseUrl !== undefined && !/^https?:\/\/\S+$/.test(o.clientBaseUrl))
    throw new UserError(
      `--client-base-url: "${o.clientBaseUrl}" is not an http(s) URL`,
      "e.g. --client-base-url http://127.0.0.1:8000/v1",
    );
  const persona = o.clientPersona === undefined ? undefined : parsePersona(o.clientPersona);
  return specs.map((s) => resolveClient(s, llm, { persona, baseUrl: o.clientBaseUrl }));
}

/**
 * Every shopper crossed with every client: "<shopper> for <client>", the client playing role
 * `client`. A shopper's draws are seeded by the shopper alone (`seedIdentity`), so the clients it
 * works for meet it on the same draws.
 */
export function withClients(shoppers: readonly AgentEntry[], clients: readonly ClientEntry[]): AgentEntry[] {
  if (clients.length === 0) return [...shoppers];
  return shoppers.flatMap((s) =>
    clients.map((c) => ({
      label: clientAgentLabel(s.label, c.label),
      identity: { shopper: s.identity, client: c.identity },
      seedIdentity: s.seedIdentity ?? s.identity,
      players: { ...s.players, [SHOP_CLIENT]: c.agent },
    })),
  );
}

/** `bazaar run shop`: its options checked and turned into the run plan (nothing written). */
export function planShop(options: CommonRunOptions, llm: LlmContext): RunPlan {
  const o = options as ShopOptions;
  const int = (name: string, v: string | undefined) =>
    v === undefined ? undefined : parseOption(name, positiveInt, v);
  const share = (name: string, v: string | undefined) =>
    v === undefined ? undefined : parseOption(name, rate, v);
  const negotiators = parseNegotiators(o);
  const offerRounds = int("offer-rounds", o.offerRounds);
  if (offerRounds !== undefined && negotiators.length === 0)
    throw new UserError(
      "--offer-rounds needs --negotiable with a share above 0",
      "add e.g. --negotiable 0.5, or leave --offer-rounds out",
    );
  const offerDesign =
    negotiators.length > 0
      ? {
          negotiable: parseOption("negotiable", rate, o.negotiable!),
          negotiators: negotiators.length,
          ...(offerRounds === undefined ? {} : { offerRounds }),
        }
      : {};
  const design = parseShopDesign({
    seed: seedValue(o.seed ?? "2026"),
    tasks: int("tasks", o.tasks),
    families: o.families === undefined ? undefined : parseFamilies(o.families),
    listings: int("listings", o.listings),
    pageSize: int("page-size", o.pageSize),
    maxSteps: int("max-steps", o.maxSteps),
    maxInvalid: int("max-invalid", o.maxInvalid),
    sponsoredRate: share("sponsored-rate", o.sponsoredRate),
    endorsementRate: share("endorsement-rate", o.endorsementRate),
    scarcityRate: share("scarcity-rate", o.scarcityRate),
    discountRate: share("discount-rate", o.discountRate),
    ...(o.admissible === undefined ? {} : parseAdmissible(o.admissible)),
    ...parseDescriptions(o),
    ...offerDesign,
  });
  const pool: Hotel[] = o.pool ? loadHotelPool(o.pool) : DEFAULT_HOTEL_POOL;
  const offers = design.negotiable !== undefined;
  const specs = splitAgentSpecs(o.agent ?? DEFAULT_SHOP_AGENTS.join(","));
  if (o.ogSchedule !== undefined && !specs.some((s) => s === "og-narrator" || s.startsWith("og-narrator:")))
    throw new UserError(
      "--og-schedule needs an og-narrator agent",
      "add og-narrator to --agent (with --negotiable), or leave --og-schedule out",
    );
  const ogSchedule = o.ogSchedule === undefined ? undefined : parseSchedule(o.ogSchedule);
  const clients = parseClients(o, llm);
  const client = clients.length > 0;
  const buyers = withClients(
    specs.map((s) => resolveShopAgent(s, llm, offers, ogSchedule, client)),
    clients,
  );
  const agents = offers ? withSellerNegotiators(buyers, negotiators, llm) : buyers;
  const tasks = buildShopTasks({ ...design, ...(client ? { clients: true } : {}) }, pool);
  return planRun({
    env: shopEnvironmentWith({ offers, client }),
    settings: {},
    tasks,
    agents,
    replicates: parseOption("replicates", positiveInt, o.replicates),
    design: {
      ...design,
      ...(client ? { clients: true } : {}),
      ...(offers ? { sellerNegotiators: negotiators } : {}),
      pool: o.pool ? { file: path.basename(o.pool), hash: stableHash(pool) } : "default",
    },
  });
}
