/**
 * `module:<file>[#export]` in process (agents/outside/module.ts): what resolving a spec checks and
 * what it names the agent; that the module loads at the first turn, not before; that a module
 * wrapping bazaar's simulated policies stores the same outcomes as the policies played natively
 * (shop, bargaining in both roles, catalog choice); and the configuration failures of modules that
 * cannot play. The LangGraph side is in module-graph.test.ts; the CLI in test/e2e/module-agent*.
 *
 * Equivalence and randomness: simulated policies draw from `ctx.rng`, seeded by the trial key, which
 * hashes the agent's identity — and a module's identity (its path and hash) is not the preset's. A
 * module agent gets the episode's `ctx` unchanged, so to compare like with like the native run here
 * is the same policy under the module's identity (the same keys, hence the same draws); for the
 * policies that draw nothing (the first-result shopper, the rule negotiators) the plain native run
 * under its own identity is compared too.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseModuleSpec } from "../../../agents/outside/module.ts";
import { type OutsideOptions, outsideResolver } from "../../../agents/outside/registry.ts";
import type { LlmContext } from "../../../agents/registry.ts";
import { planBargain } from "../../../cli/run/bargain-plan.ts";
import { planChoice } from "../../../cli/run/choice-plan.ts";
import { planShop } from "../../../cli/run/shop-plan.ts";
import { executeRun, RunStopped } from "../../../environments/runner/execute.ts";
import type { RunPlan } from "../../../environments/runner/plan.ts";
import { Store } from "../../../environments/store/index.ts";
import { REPO_ROOT, tempDir } from "../../helpers/cli.ts";

const FIX = "test/fixtures/outside-modules";

function llm(options: Partial<OutsideOptions> = {}): LlmContext {
  return { settings: {}, outside: outsideResolver({ episodeTimeoutMs: 0, cwd: REPO_ROOT, ...options }) };
}

async function outcomes(plan: RunPlan, limit?: number): Promise<Map<number, unknown>> {
  const store = Store.open(path.join(tempDir(), "m.db"), { create: true });
  try {
    const r = await executeRun(plan, store, { concurrency: 4, limit });
    expect(r.failedNow).toBe(0);
    const out = new Map<number, unknown>();
    for (const row of store.trialRows(plan.runId))
      out.set(row.seq, timeless((row.result as { outcome: unknown }).outcome));
    expect(out.size).toBe(Math.min(plan.total, limit ?? plan.total));
    return out;
  } finally {
    store.close();
  }
}

/** An outcome without the milliseconds a bargaining transcript times each message by. */
function timeless(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(timeless);
  if (x && typeof x === "object")
    return Object.fromEntries(
      Object.entries(x)
        .filter(([k]) => k !== "ms")
        .map(([k, v]) => [k, timeless(v)]),
    );
  return x;
}

/** The plan with each agent's identity taken from `like` (so its trial keys, and draws, are the same). */
function underIdentitiesOf(plan: RunPlan, like: RunPlan): RunPlan {
  return { ...plan, agents: plan.agents.map((a, i) => ({ ...a, identity: like.agents[i]!.identity })) };
}

describe("resolving module: specs", () => {
  it("names the file, its hash and the export, and parses #export", () => {
    const file = `${FIX}/sim-agents.ts`;
    const plan = planShop(
      { agent: `module:${file}#careful`, tasks: "2", replicates: "1" },
      llm({ agentVersion: "v2" }),
    );
    const sha256 = createHash("sha256")
      .update(readFileSync(path.join(REPO_ROOT, file)))
      .digest("hex");
    expect(plan.agents[0]!.label).toBe(`module:${file}#careful`);
    expect(plan.agents[0]!.identity).toEqual({
      kind: "module",
      path: file,
      sha256,
      export: "careful",
      version: "v2",
    });
    const bare = planShop({ agent: `module:./${file}`, tasks: "2", replicates: "1" }, llm());
    expect(bare.agents[0]!.identity).toMatchObject({ path: file, export: "default" });
    expect(parseModuleSpec("a/b#c.ts")).toEqual({ file: "a/b#c.ts", exportName: "default" });
    expect(parseModuleSpec("x.mjs#make_1")).toEqual({ file: "x.mjs", exportName: "make_1" });
  });

  it("refuses a missing file or one that is not a module, before anything runs", () => {
    expect(() => planShop({ agent: "module:nope/agent.ts", tasks: "2", replicates: "1" }, llm())).toThrow(
      /agent "module:nope\/agent.ts": there is no file .*nope\/agent.ts/,
    );
    expect(() => planShop({ agent: "module:README.md", tasks: "2", replicates: "1" }, llm())).toThrow(
      /README.md is not a JavaScript or TypeScript module/,
    );
  });

  it("loads the module at the first turn, once, not when the spec resolves", async () => {
    const flag = globalThis as { bazaarModuleLoaded?: number };
    delete flag.bazaarModuleLoaded;
    const plan = planShop({ agent: `module:${FIX}/loaded-flag.ts`, tasks: "3", replicates: "1" }, llm());
    expect(flag.bazaarModuleLoaded).toBeUndefined();
    const got = await outcomes(plan);
    expect(flag.bazaarModuleLoaded).toBe(1);
    for (const o of got.values()) expect(o).toMatchObject({ endReason: "gave-up", giveUpReason: "loaded" });
  });
});

describe("a module wrapping bazaar's simulated policies stores what they store natively", () => {
  const shop = (agent: string) => planShop({ agent, tasks: "24", replicates: "2" }, llm());

  it("shop: every preset, per-episode factories and one shared Agent", async () => {
    const pairs: [string, string][] = [
      ["careful", "careful"],
      ["first-result", "firstResult"],
      ["ignores-constraint", "ignoresConstraint"],
      ["invents-ids", "inventsIds"],
      ["lapsing", "lapsing"],
    ];
    const specs = pairs.map(([, e]) => `module:${FIX}/sim-agents.ts#${e}`);
    const viaModule = shop(specs.join(","));
    const native = underIdentitiesOf(shop(pairs.map(([p]) => `sim:${p}`).join(",")), viaModule);
    const [m, n] = await Promise.all([outcomes(viaModule), outcomes(native)]);
    expect([...m.entries()]).toEqual([...n.entries()]);
    // The policies drew from the episode's stream: outcomes differ across the two replicates.
    expect(new Set([...m.values()].map((o) => JSON.stringify(o))).size).toBeGreaterThan(100);
    const shared = shop(`module:${FIX}/sim-agents.ts#carefulShared`);
    const [s, c] = await Promise.all([
      outcomes(shared),
      outcomes(underIdentitiesOf(shop("sim:careful"), shared)),
    ]);
    expect([...s.entries()]).toEqual([...c.entries()]);
  });

  it("shop: the first-result shopper, which draws nothing, matches sim:first-result under its own identity", async () => {
    const [m, n] = await Promise.all([
      outcomes(shop(`module:${FIX}/sim-agents.ts#firstResult`)),
      outcomes(shop("sim:first-result")),
    ]);
    expect([...m.entries()]).toEqual([...n.entries()]);
  });

  it("bargaining: a negotiator module as buyer and as seller", async () => {
    const bargain = (buyer: string, seller: string) =>
      planBargain({ buyer, seller, scenarios: "12", replicates: "2" }, llm());
    const mod = `module:${FIX}/sim-agents.ts`;
    const cases: [RunPlan, RunPlan][] = [
      [bargain(`${mod}#llmNegotiator`, "rule:boulware,sim:llm"), bargain("sim:llm", "rule:boulware,sim:llm")],
      [bargain("sim:llm,rule:conceder", `${mod}#llmNegotiator`), bargain("sim:llm,rule:conceder", "sim:llm")],
      [bargain(`${mod}#boulware`, `${mod}#titForTat`), bargain("rule:boulware", "rule:tit-for-tat")],
    ];
    for (const [viaModule, native] of cases) {
      const [m, n] = await Promise.all([outcomes(viaModule), outcomes(underIdentitiesOf(native, viaModule))]);
      expect([...m.entries()]).toEqual([...n.entries()]);
    }
    // Rule negotiators draw nothing: the same outcomes under their own identities too.
    const [m, n] = await Promise.all([
      outcomes(bargain(`${mod}#boulware`, `${mod}#titForTat`)),
      outcomes(bargain("rule:boulware", "rule:tit-for-tat")),
    ]);
    expect([...m.entries()]).toEqual([...n.entries()]);
  });

  it("catalog choice: a logit chooser", async () => {
    const choice = (agent: string) =>
      planChoice({ agent, pairs: "40", triples: "20", fives: "20", replicates: "2", maxReasks: "2" }, llm());
    const viaModule = choice(`module:${FIX}/sim-agents.ts#steep`);
    const [m, n] = await Promise.all([
      outcomes(viaModule),
      outcomes(underIdentitiesOf(choice("sim:steep"), viaModule)),
    ]);
    expect([...m.entries()]).toEqual([...n.entries()]);
  });

  it("a plain JavaScript Agent factory (no tsx) is given the environment, role, tools and task", async () => {
    const got = await outcomes(
      planShop({ agent: `module:${FIX}/give-up.mjs`, tasks: "2", replicates: "1" }, llm()),
    );
    for (const o of got.values())
      expect(o).toMatchObject({
        endReason: "gave-up",
        giveUpReason: expect.stringMatching(/^shop\/shopper with search,view,book,give_up: I need a hotel/),
      });
  });
});

describe("CommonJS modules", () => {
  it("module.exports and its properties, and TypeScript in a CommonJS package (no type: module)", async () => {
    const dir = tempDir();
    const agent = (reason: string) =>
      `({ id: "x", act: () => ({ action: { type: "give_up", reason: "${reason}" } }) })`;
    writeFileSync(
      path.join(dir, "agent.cjs"),
      `module.exports = () => ${agent("cjs")};\nmodule.exports.named = () => ${agent("cjs-named")};\n`,
    );
    writeFileSync(
      path.join(dir, "agent.ts"),
      `export default () => ${agent("ts")};\nexport const named = () => ${agent("ts-named")};\n`,
    );
    for (const [spec, reason] of [
      ["agent.cjs", "cjs"],
      ["agent.cjs#named", "cjs-named"],
      ["agent.ts", "ts"],
      ["agent.ts#named", "ts-named"],
    ]) {
      const got = await outcomes(
        planShop({ agent: `module:${spec}`, tasks: "1", replicates: "1" }, llm({ cwd: dir })),
      );
      expect([...got.values()], spec).toEqual([expect.objectContaining({ giveUpReason: reason })]);
    }
  });
});

describe("a module that cannot play stops the run and says what to fix", () => {
  async function stopped(spec: string): Promise<RunStopped> {
    const plan = planShop({ agent: spec, tasks: "4", replicates: "1" }, llm());
    const store = Store.open(path.join(tempDir(), "m.db"), { create: true });
    try {
      const err = await executeRun(plan, store, { concurrency: 2 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(RunStopped);
      expect(store.getRun(plan.runId)).toMatchObject({ done: 0 });
      return err as RunStopped;
    } finally {
      store.close();
    }
  }

  it("a missing export, named with the exports there are", async () => {
    const err = await stopped(`module:${FIX}/broken.ts#nope`);
    expect(err.message).toBe(`module ${FIX}/broken.ts: it has no export "nope"`);
    expect(err.hint).toMatch(
      /its exports: factoryThrows, notAnAgent, returnsGraph, returnsNothing \(name one after #/,
    );
  });

  it("an export that is no agent, a factory that throws or returns something else", async () => {
    expect((await stopped(`module:${FIX}/broken.ts#notAnAgent`)).message).toMatch(
      /its export "notAnAgent" is not an Agent \(an object with act\), an Agent factory/,
    );
    expect((await stopped(`module:${FIX}/broken.ts#factoryThrows`)).message).toMatch(
      /its agent factory threw: no key in the environment/,
    );
    expect((await stopped(`module:${FIX}/broken.ts#returnsNothing`)).message).toMatch(
      /its agent factory returned no Agent/,
    );
    const graph = await stopped(`module:${FIX}/broken.ts#returnsGraph`);
    expect(graph.message).toMatch(/its factory returned a graph, not an Agent/);
    expect(graph.hint).toMatch(/export const bazaarGraph = true;/);
  });

  it("a module that does not load", async () => {
    const dir = tempDir();
    const file = path.join(dir, "bad.mjs");
    writeFileSync(file, "export default {\n");
    const plan = planShop({ agent: `module:${file}`, tasks: "2", replicates: "1" }, llm({ cwd: dir }));
    const store = Store.open(path.join(dir, "m.db"), { create: true });
    const err = (await executeRun(plan, store, { concurrency: 1 }).catch((e: unknown) => e)) as RunStopped;
    store.close();
    expect(err).toBeInstanceOf(RunStopped);
    expect(err.message).toMatch(/^module bad.mjs: it did not load: /);
  });
});
