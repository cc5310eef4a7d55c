/**
 * Outside agents as sellers (issue 32, item 3), in process: the waiting agent keys its links by
 * conversation, so a shop's seller negotiator reached from outside answers each listing's
 * negotiation through a link of its own (several at once in an episode whose shopper haggles with
 * several sellers), each ending with that negotiation's outcome; and a market's adopters' seller
 * plays each seller turn through a link. A policy played through the links stores exactly what the
 * same policy stores natively — the same run (same identity, same seeds), only the player swapped —
 * task by task. The CLI and MCP around these links are tested in test/e2e/outside-sellers.long.test.ts.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RULE_PRESETS } from "../../../agents/bargain/presets.ts";
import { outsideResolver } from "../../../agents/outside/registry.ts";
import type { OutsideResolver } from "../../../agents/outside/types.ts";
import type { EpisodeLink, LinkEpisode } from "../../../agents/outside/waiting.ts";
import { SELLER_PRESETS } from "../../../agents/sim/market/presets.ts";
import { planMarket } from "../../../cli/run/market-plan.ts";
import { planShop } from "../../../cli/run/shop-plan.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import type { Agent } from "../../../environments/kernel/types.ts";
import { roundRunId, runMarket } from "../../../environments/market/driver.ts";
import { executeRun } from "../../../environments/runner/execute.ts";
import { trialRecords } from "../../../environments/runner/records.ts";
import type { Negotiation } from "../../../environments/shop/types.ts";
import { Store } from "../../../environments/store/index.ts";
import { REPO_ROOT, tempDir } from "../../helpers/cli.ts";

const SPEC = "mcp:in-process";

interface Ended {
  trialKey: string;
  key: string;
  /** The listing a shop seller's link negotiated over (its view's codename). */
  codename?: string;
  text: string;
  steps: number;
}

/** Where links go: each is played by `policy` through its calls, as an outside agent would. */
function playedThroughLinks(policy: () => Agent<unknown, unknown>, ended: Ended[]): LinkEpisode {
  return (link) => {
    void play(link, policy(), ended);
  };
}

async function play(link: EpisodeLink, policy: Agent<unknown, unknown>, ended: Ended[]): Promise<void> {
  let r = await link.call("get_task", {});
  const codename = (r.view as { codename?: string }).codename;
  const ctx = { rng: createRng(link.key), trialKey: link.trialKey, replicate: link.replicate };
  while (!r.over) {
    const { action } = await policy.act({ messages: [], view: r.view }, ctx);
    const { type, ...args } = action as Record<string, unknown>;
    r = await link.call(String(type), args);
  }
  ended.push({ trialKey: link.trialKey, key: link.key, codename, text: r.text, steps: link.steps });
}

/** The served slot's twin: the same identity (so the same run and seeds), `agent` playing natively. */
function nativeTwin(agent: Agent<unknown, unknown>): OutsideResolver {
  const real = outsideResolver({ episodeTimeoutMs: 0, serve: () => {} });
  return (spec, env, role) => {
    const p = real(spec, env, role);
    return p && spec === SPEC ? { ...p, agent } : p;
  };
}

function storeAt(name: string): Store {
  return Store.open(path.join(tempDir(), name), { create: true });
}

describe("a shop's seller negotiator from outside: one link a negotiation", () => {
  it("rule:boulware through the links stores what it stores natively, task by task; each link ends with its own negotiation", async () => {
    const args = {
      agent: "sim:seller-playing-haggler",
      negotiable: "0.6",
      sellerNegotiator: SPEC,
      tasks: "8",
      replicates: "1",
    };
    const boulware = () => RULE_PRESETS.boulware!.make("rule:boulware") as Agent<unknown, unknown>;
    const ended: Ended[] = [];
    const outside = outsideResolver({ episodeTimeoutMs: 0, serve: playedThroughLinks(boulware, ended) });
    const served = planShop(args, { settings: {}, outside });
    const native = planShop(args, { settings: {}, outside: nativeTwin(boulware()) });
    expect(native.runId).toBe(served.runId);

    const records = async (plan: typeof served, file: string) => {
      const store = storeAt(file);
      try {
        const result = await executeRun(plan, store, { concurrency: 4, liveTurns: false });
        expect(result.failed).toBe(0);
        return [...trialRecords(store, plan.runId)];
      } finally {
        store.close();
      }
    };
    const through = await records(served, "links.db");
    const natively = await records(native, "native.db");
    const shape = (r: Record<string, unknown>) => ({
      task: r.taskId,
      endReason: r.endReason,
      booked: (r.booked as { id: string } | null)?.id ?? null,
      paid: r.paid,
      negotiations: r.negotiations,
    });
    expect(through.map(shape)).toEqual(natively.map(shape));

    // Several negotiations in one episode, each through its own link, ended with its own outcome.
    const negotiations = through.flatMap((r) =>
      (r.negotiations as Negotiation[]).map((n) => ({
        trialKey: r.trialKey as string,
        booked: shape(r).booked,
        n,
      })),
    );
    expect(through.some((r) => (r.negotiations as Negotiation[]).length >= 2)).toBe(true);
    expect(ended).toHaveLength(negotiations.length);
    expect(new Set(ended.map((e) => e.key)).size).toBe(ended.length);
    for (const { trialKey, booked, n } of negotiations) {
      const link = ended.find((e) => e.trialKey === trialKey && e.codename === n.id)!;
      expect(link, n.id).toBeDefined();
      const deal = n.deal === null ? "no deal" : `a deal at ${n.deal} US dollars`;
      expect(
        link.text.startsWith(
          `The negotiation is over: ${n.closed && n.deal === null ? "no deal, you quit" : deal}; `,
        ),
      ).toBe(true);
      expect(link.text).toMatch(
        booked === n.id
          ? /the shopper booked your listing at/
          : /the shopper booked (another listing|nothing)\.$/,
      );
      // Every seller move of the record was one step of that link.
      expect(link.steps).toBe(n.offers.filter((o) => o.side === "seller").length);
    }
  });
});

describe("a shop's seller negotiator as a module: Agent factory", () => {
  it("is made once a negotiation, given that negotiation's task", async () => {
    const args = {
      agent: "sim:seller-playing-haggler",
      negotiable: "0.6",
      sellerNegotiator: "module:test/fixtures/outside-modules/seller-factory.ts",
      tasks: "4",
      replicates: "1",
    };
    const plan = planShop(args, {
      settings: {},
      outside: outsideResolver({ episodeTimeoutMs: 0, cwd: REPO_ROOT }),
    });
    const store = storeAt("factory.db");
    try {
      await executeRun(plan, store, { concurrency: 2, liveTurns: false });
      const records = [...trialRecords(store, plan.runId)];
      const made = (
        globalThis as {
          bazaarSellerFactory?: { trialKey: string; env: string; role: string; request: string }[];
        }
      ).bazaarSellerFactory!;
      for (const r of records) {
        const negotiations = r.negotiations as Negotiation[];
        const mine = made.filter((m) => m.trialKey === r.trialKey);
        expect(mine.map((m) => m.env + "/" + m.role)).toEqual(negotiations.map(() => "bargain/seller"));
        // Each agent was made for its own listing: its task names that listing's codename.
        expect(new Set(mine.map((m) => negotiations.find((n) => m.request.includes(n.id))?.id)).size).toBe(
          negotiations.length,
        );
      }
      expect(records.some((r) => (r.negotiations as Negotiation[]).length >= 2)).toBe(true);
    } finally {
      store.close();
    }
  });
});

describe("a market's adopters' seller from outside: one link a seller turn", () => {
  it("sim:cue-bandit through the links stores what it stores natively, round by round", async () => {
    const args = {
      sellers: "4",
      rounds: "3",
      buyersPerRound: "10",
      adopters: "1,2",
      seller: SPEC,
      seed: "11",
    };
    const bandit = () => SELLER_PRESETS["cue-bandit"].make("sim:cue-bandit") as Agent<unknown, unknown>;
    const ended: Ended[] = [];
    const served = planMarket(args, {
      settings: {},
      outside: outsideResolver({ episodeTimeoutMs: 0, serve: playedThroughLinks(bandit, ended) }),
    });
    const native = planMarket(args, { settings: {}, outside: nativeTwin(bandit()) });
    expect(native.marketId).toBe(served.marketId);

    const rounds = async (plan: typeof served, file: string) => {
      const store = storeAt(file);
      try {
        const result = await runMarket(plan, store, { concurrency: 4, liveTurns: false });
        expect(result.roundsDone).toBe(3);
        const out: Record<string, unknown>[][] = [];
        for (let round = 1; round <= 3; round++)
          for (const part of ["buyers", "sellers"] as const)
            out.push(
              [...trialRecords(store, roundRunId(plan.marketId, round, part))].map((r) =>
                part === "buyers"
                  ? { task: r.taskId, booked: (r.booked as { id: string } | null)?.id ?? null }
                  : {
                      task: r.taskId,
                      player: r.player,
                      adopter: r.adopter,
                      action: r.action,
                      price: r.price,
                      description: r.description,
                    },
              ),
            );
        return out;
      } finally {
        store.close();
      }
    };
    const through = await rounds(served, "links.db");
    expect(through).toEqual(await rounds(native, "native.db"));
    // One link a turn of an adopter (3 rounds × 1 market × (1 + 2) adopters), each its turn's end.
    expect(ended).toHaveLength(9);
    for (const e of ended) expect(e.text).toMatch(/^Your turn is over: /);
    const turns = through.flat().filter((t) => "action" in t);
    // The bandit rewrote its description (a policy that kept still would prove little).
    expect(turns.filter((t) => t.adopter && t.action !== "keep()").length).toBeGreaterThan(0);
    expect(turns.filter((t) => t.adopter).every((t) => t.player === SPEC)).toBe(true);
  });
});
