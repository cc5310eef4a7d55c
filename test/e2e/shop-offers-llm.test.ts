/**
 * Offers on the shop's LLM path: `bazaar run shop --negotiable` with the shopper, or the sellers,
 * played through ChatOpenAI against serve-sim. The seller-playing haggler behind serve-sim
 * (`sim-shop-seller-playing-haggler`, its view read back out of the conversation by `observeShop`)
 * bargains with two sellers in one episode through native tool calls and through Action lines,
 * and stores what the same haggler stores played in process; LLM sellers
 * (`--seller-negotiator openai:sim-bargain-<rule>`, one bargaining conversation per listing) answer
 * as the rule sellers do in process; a seller's malformed reply is counted, not fatal.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import type { ShopTrialRecord } from "../../environments/shop/index.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";

/** Dozens of model calls through the real client: room for a loaded 2-core machine. */
const HEAVY = 120_000;

/** A small design with offers: every listing takes them, dealt to two sellers in turn. */
const DESIGN = [
  "--tasks",
  "6",
  "--families",
  "open",
  "--replicates",
  "1",
  "--max-steps",
  "20",
  "--negotiable",
  "1",
  "--seed",
  "7",
];
const RULE_SELLERS = "rule:boulware,rule:conceder";
const HAGGLER = "seller-playing-haggler";

async function runShop(args: string[], design = DESIGN): Promise<ShopTrialRecord[]> {
  const cwd = tempDir();
  const store = path.join(cwd, "bazaar.db");
  const run = await runInProcess([
    "run",
    "shop",
    ...design,
    ...args,
    "--store",
    store,
    "--no-cache",
    "--json",
  ]);
  expect(run.code, `${args.join(" ")}\n${run.err}`).toBe(0);
  const { runId, stored, total } = JSON.parse(run.out) as { runId: string; stored: number; total: number };
  expect(stored).toBe(total);
  const file = path.join(cwd, "trials.jsonl");
  const exported = await runInProcess(["export", runId, "--store", store, "--out", file]);
  expect(exported.code, exported.err).toBe(0);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as ShopTrialRecord)
    .sort((a, b) => a.taskId.localeCompare(b.taskId));
}

/** What an episode did and got, whoever played it (not the agent's name, usage or timing). */
function played(r: ShopTrialRecord) {
  return {
    taskId: r.taskId,
    endReason: r.endReason,
    booked: r.booked?.id ?? null,
    paid: r.paid,
    deadlock: r.deadlock,
    steps: r.steps,
    turns: r.turns,
    invalidCalls: r.invalidCalls,
    negotiations: r.negotiations,
    trajectory: r.trajectory.map((t) => [t.step, t.turn, t.tool, t.args, t.ok, t.summary]),
  };
}

describe("offers through ChatOpenAI against serve-sim", () => {
  let server: Awaited<ReturnType<typeof startSimServer>>;
  let native: ShopTrialRecord[];
  beforeAll(async () => {
    server = await startSimServer({ port: 0 });
    native = await runShop(["--agent", `sim:${HAGGLER}`, "--seller-negotiator", RULE_SELLERS]);
  }, HEAVY);
  afterAll(async () => {
    await server.close();
  });

  it("the native haggler bargains with both sellers in one episode, quoting one to the other", () => {
    const both = native.filter((r) => new Set(r.negotiations?.map((n) => n.seller)).size === 2);
    expect(both.length).toBeGreaterThan(0);
    const quoted = native.some((r) =>
      r.negotiations?.some((n) => n.offers.some((o) => o.message.includes("Another seller offers"))),
    );
    expect(quoted).toBe(true);
    expect(native.some((r) => r.negotiations?.some((n) => n.deal !== null))).toBe(true);
  });

  for (const mode of ["tools", "text"] as const) {
    it(
      `${mode} mode: the haggler behind serve-sim stores the native haggler's episodes`,
      async () => {
        const remote = await runShop([
          "--agent",
          `openai:sim-shop-${HAGGLER}`,
          "--base-url",
          server.url,
          "--answer-mode",
          mode,
          "--seller-negotiator",
          RULE_SELLERS,
        ]);
        expect(remote.map(played)).toEqual(native.map(played));
        for (const r of remote) {
          expect(r.nonResponse).toBeNull();
          expect(r.usage.calls).toBe(r.turns);
        }
        // Several offers in one model message, each answered by its own seller.
        const offersAtOnce = remote.some((r) =>
          r.trajectory.some(
            (t, i) =>
              t.tool === "offer" &&
              i > 0 &&
              r.trajectory[i - 1]!.tool === "offer" &&
              r.trajectory[i - 1]!.turn === t.turn,
          ),
        );
        expect(offersAtOnce).toBe(true);
      },
      HEAVY,
    );
  }

  it.each(["tools", "text"])(
    "%s mode: LLM sellers behind serve-sim answer each listing's offers as the rule sellers do in process",
    async (mode) => {
      const remote = await runShop([
        "--agent",
        `sim:${HAGGLER}`,
        "--seller-negotiator",
        "openai:sim-bargain-boulware,openai:sim-bargain-conceder",
        "--base-url",
        server.url,
        "--answer-mode",
        mode,
      ]);
      expect(remote.map(played)).toEqual(native.map(played));
      // Each seller answered offers on several listings of one episode, each in its own conversation.
      const sellerListings = remote.flatMap((r) => {
        const bySeller = new Map<string, number>();
        for (const n of r.negotiations ?? []) bySeller.set(n.seller, (bySeller.get(n.seller) ?? 0) + 1);
        return [...bySeller.values()];
      });
      expect(Math.max(...sellerListings)).toBeGreaterThan(1);
    },
    HEAVY,
  );

  it(
    "a malformed seller reply is counted against the seller and read as a rejection, not fatal; the seller answers its next offer",
    async () => {
      // A server that answers a quarter of its requests off format (prose, no call): every such
      // answer of the LLM seller is a malformed reply, and the server counts them.
      const faulty = await startSimServer({ port: 0, seed: 3, faults: { rateOffFormat: 0.25 } });
      try {
        const records = await runShop([
          "--agent",
          `sim:${HAGGLER}`,
          "--seller-negotiator",
          "openai:sim-bargain-boulware,rule:conceder",
          "--base-url",
          faulty.url,
          "--answer-mode",
          "tools",
        ]);
        const offFormat = faulty.stats().byOutcome["off-format"];
        expect(offFormat).toBeGreaterThan(0);
        const negotiations = records.flatMap((r) => r.negotiations ?? []);
        // Each malformed reply counted once, against its seller; no other answer lost with it.
        expect(negotiations.reduce((a, n) => a + n.sellerInvalid, 0)).toBe(offFormat);
        for (const n of negotiations.filter((x) => x.sellerInvalid > 0)) {
          expect(n.seller).toBe("seller-1");
          const moves = n.offers.filter((o) => o.side === "seller" && o.move === "invalid");
          expect(moves).toHaveLength(n.sellerInvalid);
          for (const m of moves) expect(m.price).toBeNull();
        }
        for (const r of records) {
          expect(["booked", "gave-up", "out-of-steps"]).toContain(r.endReason);
          expect(r.nonResponse).toBeNull();
          // The shopper read a rejection; its offer was a valid call, not an error of its own.
          for (const t of r.trajectory.filter((x) => x.summary.endsWith("no usable answer from the seller")))
            expect(t.ok).toBe(true);
        }
        // The seller's next answer in the same negotiation was read again (its unusable reply left
        // out of the history it is shown, not taken for the end of its conversation).
        const recovered = negotiations.some((n) => {
          const i = n.offers.findIndex((o) => o.side === "seller" && o.move === "invalid");
          return i >= 0 && n.offers.slice(i + 1).some((o) => o.side === "seller" && o.move !== "invalid");
        });
        expect(recovered).toBe(true);
      } finally {
        await faulty.close();
      }
    },
    HEAVY,
  );
});
