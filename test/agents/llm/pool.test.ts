import { writeFileSync } from "node:fs";
import path from "node:path";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { type CachedResponse, cacheKey, MemoryResponseCache } from "../../../agents/llm/cache.ts";
import { type ChatInvoker, ModelCaller } from "../../../agents/llm/caller.ts";
import { LocalGate, poolStats } from "../../../agents/llm/gate.ts";
import { parseBaseUrls } from "../../../agents/llm/pool/base-urls.ts";
import { poolIdentity, ReplicaPool } from "../../../agents/llm/pool/replicas.ts";
import { type LlmSettingsInput, LlmSettingsSchema, llmIdentity } from "../../../agents/llm/settings.ts";
import { UserError } from "../../../environments/kernel/errors.ts";
import { tempDir } from "../../helpers/cli.ts";

let hostNo = 0;
/** Fresh replica URLs per test: endpoints (and their pools) are shared per process by URL. */
function urls(n: number): string[] {
  hostNo++;
  return Array.from({ length: n }, (_, i) => `http://pool${hostNo}-r${i}.test/v1`);
}

function settings(extra: Partial<LlmSettingsInput>) {
  return LlmSettingsSchema.parse({ model: "m", maxRetries: 3, seed: 0, ...extra });
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("ReplicaPool", () => {
  it("sends to the replica with the fewest requests in flight, ties in turn", async () => {
    const pool = new ReplicaPool(urls(3), 3, 1000);
    // Nothing in flight: all tie, and ties go round.
    expect([pool.choose(), pool.choose(), pool.choose(), pool.choose()]).toEqual([0, 1, 2, 0]);
    const held: number[] = [];
    for (let k = 0; k < 3; k++) held.push(await pool.start(undefined));
    expect([...held].sort()).toEqual([0, 1, 2]);
    pool.finish(1, "success");
    // 1 is the only idle one, wherever the cursor is.
    expect(await pool.start(undefined)).toBe(1);
    expect(await pool.start(undefined)).not.toBe(1);
    pool.finish(0, "success");
    pool.finish(2, "success");
    // In flight: one of 0/2, and 1 twice: the idle one of 0/2 next.
    const loads = pool.stats().map((r) => r.inFlight);
    const idle = loads.indexOf(0);
    expect(await pool.start(undefined)).toBe(idle);
  });

  it("prefers any replica but the one a retry avoids, and uses it when it is the only one left", async () => {
    const pool = new ReplicaPool(urls(2), 1, 60_000);
    // Replica 1 busier than 0: still chosen over the avoided 0.
    expect(await pool.start(1)).toBe(0);
    expect(await pool.start(0)).toBe(1);
    expect(await pool.start(0)).toBe(1); // again, though it now has more in flight than 0
    expect(pool.stats().map((r) => r.inFlight)).toEqual([1, 2]);
    pool.finish(1, { failure: "HTTP 500" }); // threshold 1: replica 1 is out
    expect(pool.choose()).toBe(0);
    // Avoiding the only replica left still sends to it.
    expect(pool.choose(0)).toBe(0);
  });

  it("takes a failing replica out by its own breaker and puts it back after the cooldown and a success", async () => {
    const outs: string[] = [];
    const u = urls(3);
    const pool = new ReplicaPool(u, 2, 80, (url, reason) => outs.push(`${url}: ${reason}`));
    const fail = async (i: number) => pool.finish(i, { failure: "HTTP 500: down" });
    // Two failures in a row on replica 1 (its count only; the others keep answering).
    const held = [await pool.start(undefined), await pool.start(undefined), await pool.start(undefined)];
    expect(held.sort()).toEqual([0, 1, 2]);
    pool.finish(0, "success");
    pool.finish(2, "success");
    await fail(1);
    expect(outs).toEqual([]);
    const again = [];
    for (let k = 0; k < 3; k++) again.push(await pool.start(undefined));
    expect(again.sort()).toEqual([0, 1, 2]);
    pool.finish(0, "success");
    pool.finish(2, "success");
    const t0 = Date.now();
    await fail(1);
    expect(outs).toEqual([`${u[1]}: 2 consecutive failures, last: HTTP 500: down`]);
    expect(pool.stats()[1]).toMatchObject({ out: true, takenOut: 1, failures: 2, requests: 2 });
    // While it is out, every request goes to the others.
    for (let k = 0; k < 30; k++) expect(pool.choose()).not.toBe(1);
    // After the cooldown it takes one probe (and only one at a time)…
    await until(() => Date.now() - t0 >= 80 && pool.choose() !== null && !pool.stats()[1]!.out);
    const probes: number[] = [];
    for (let k = 0; k < 3; k++) probes.push(await pool.start(undefined));
    expect(probes.filter((i) => i === 1)).toHaveLength(1);
    for (const i of probes) if (i !== 1) pool.finish(i, "success");
    // …a failed probe takes it out again at once…
    pool.finish(1, { failure: "HTTP 500: still down" });
    expect(pool.stats()[1]).toMatchObject({ out: true, takenOut: 2 });
    expect(outs[1]).toMatch(/the probe after the cooldown failed: HTTP 500: still down/);
    // …and a successful one puts it back for good: it then takes its share again.
    await until(() => !pool.stats()[1]!.out);
    const got = [await pool.start(undefined), await pool.start(undefined), await pool.start(undefined)];
    expect(got.filter((i) => i === 1)).toHaveLength(1); // the probe
    for (const i of got) pool.finish(i, "success");
    const share = [0, 0, 0];
    for (let k = 0; k < 30; k++) {
      const i = await pool.start(undefined);
      share[i]!++;
      pool.finish(i, "success");
    }
    expect(share).toEqual([10, 10, 10]);
  });

  it("waits only when every replica is out, saying once which are out and why", async () => {
    const u = urls(2);
    const pool = new ReplicaPool(u, 1, 60, () => {});
    const a = await pool.start(undefined);
    const b = await pool.start(undefined);
    pool.finish(a, { failure: "HTTP 500: a" });
    pool.finish(b, { failure: "ECONNREFUSED" });
    expect(pool.choose()).toBeNull();
    const told: string[] = [];
    const t0 = Date.now();
    const i = await pool.start(undefined, undefined, (o) => told.push(o.reason));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(40);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain(`every replica is out: ${u[0]} (`);
    expect(told[0]).toContain(u[1]);
    expect(told[0]).toContain("ECONNREFUSED");
    expect([0, 1]).toContain(i);
  });
});

describe("LocalGate over a pool", () => {
  it("grants the replica it chose, spreads requests in flight, and a retry's grant avoids the last replica", async () => {
    const u = urls(3);
    // The fixed cap: an adaptive one starts below it (its window is tested in limiter.test.ts).
    const s = settings({ baseURL: u[0], replicas: u, concurrency: 2, adaptiveConcurrency: false });
    const gate = new LocalGate(s, undefined, {});
    const grants = await Promise.all([0, 1, 2, 3, 4, 5].map(() => gate.acquire(0)));
    const per = [0, 0, 0];
    for (const g of grants) per[g.replica!]!++;
    // Concurrency 2 per replica: six at once, two on each.
    expect(per).toEqual([2, 2, 2]);
    for (const g of grants) g("success");
    for (let k = 0; k < 10; k++) {
      const last = k % 3;
      const g = await gate.acquire(0, undefined, last);
      expect(g.replica).not.toBe(last);
      g("success");
    }
  });

  it("a failed request is retried on another replica, and the pool's counts say so", async () => {
    const u = urls(2);
    const s = settings({ baseURL: u[0], replicas: u, model: `m-retry-${hostNo}` });
    let calls = 0;
    const chat: ChatInvoker = {
      async invoke() {
        calls++;
        if (calls === 1) throw Object.assign(new Error("server error"), { status: 500 });
        return new AIMessage({ content: "ok" });
      },
    };
    const caller = new ModelCaller({ ...s, maxRetries: 1 }, undefined, undefined, {}, chat);
    // The retry's backoff with these settings is at most 250 ms.
    const r = await caller.call([new HumanMessage("hi")], undefined, 0);
    expect(r.usage.calls).toBe(2);
    const stats = poolStats().find((p) => p.replicas[0]!.url === u[0])!.replicas;
    expect(stats.map((x) => x.requests)).toEqual([1, 1]);
    expect(stats.map((x) => x.failures).sort()).toEqual([0, 1]);
  });
});

describe("the pool as one endpoint", () => {
  class RecordingCache extends MemoryResponseCache {
    keys: string[] = [];
    override put(key: string, model: string, value: CachedResponse): void {
      this.keys.push(key);
      super.put(key, model, value);
    }
  }
  const answer: ChatInvoker = { invoke: async () => new AIMessage({ content: "A" }) };
  const refuse: ChatInvoker = {
    invoke: async () => {
      throw new Error("must have come from the cache");
    },
  };

  it("shares the cache between a,b and b,a, and a single URL keeps today's key", async () => {
    const [a, b] = urls(2) as [string, string];
    const cache = new RecordingCache();
    const ab = settings({ baseURL: a, replicas: [a, b] });
    await new ModelCaller(ab, undefined, cache, {}, answer).call([new HumanMessage("hi")], undefined, 0);
    const ba = settings({ baseURL: b, replicas: [b, a] });
    const hit = await new ModelCaller(ba, undefined, cache, {}, refuse).call(
      [new HumanMessage("hi")],
      undefined,
      0,
    );
    expect(hit.usage.cacheHits).toBe(1);
    expect(cache.keys).toHaveLength(1);
    // One URL: the key as it was before pools (the same inputs, the URL as given).
    const single = settings({ baseURL: a });
    await new ModelCaller(single, undefined, cache, {}, answer).call([new HumanMessage("hi")], undefined, 0);
    expect(cache.keys[1]).toBe(
      cacheKey({
        baseURL: a,
        model: "m",
        messages: [{ role: "human", content: "hi", toolCalls: [] }],
        tools: null,
        toolChoice: null,
        params: { temperature: null, topP: null, maxTokens: null, seed: 0, reasoningEffort: null },
        replicate: 0,
      }),
    );
    expect(cache.keys[1]).not.toBe(cache.keys[0]);
    expect(poolIdentity([a])).toBe(a);
    expect(poolIdentity([b, `${a}/`])).toBe(poolIdentity([a, b]));
  });

  it("is one run whatever its replicas; one URL keeps its identity", () => {
    const [a, b, c] = urls(3) as [string, string, string];
    const ab = llmIdentity(settings({ baseURL: a, replicas: [a, b] }));
    expect(llmIdentity(settings({ baseURL: c, replicas: [c, b] }))).toEqual(ab);
    expect(ab.baseURL).toBe("pool");
    expect(llmIdentity(settings({ baseURL: a })).baseURL).toBe(a);
  });
});

describe("--base-url", () => {
  const dir = tempDir("bazaar-pool-");
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it("takes one URL, a comma-separated list, or a pool file", () => {
    expect(parseBaseUrls("http://a/v1")).toEqual(["http://a/v1"]);
    expect(parseBaseUrls("http://a/v1, http://b/v1")).toEqual(["http://a/v1", "http://b/v1"]);
    const f = file("ok.json", JSON.stringify({ replicas: [{ url: "http://a/v1" }, { url: "http://b/v1" }] }));
    expect(parseBaseUrls(`@${f}`)).toEqual(["http://a/v1", "http://b/v1"]);
  });

  it("says which file and what is wrong with a bad one", () => {
    const bad = (arg: string) => {
      try {
        parseBaseUrls(arg);
      } catch (err) {
        expect(err).toBeInstanceOf(UserError);
        return (err as Error).message;
      }
      throw new Error("accepted");
    };
    expect(bad("http://a/v1,nope")).toBe('--base-url: "nope" is not a URL');
    expect(bad("http://a/v1,http://a/v1/")).toMatch(/lists http:\/\/a\/v1\/ twice/);
    expect(bad(`@${path.join(dir, "missing.json")}`)).toMatch(/cannot read the pool file .*missing\.json/);
    expect(bad(`@${file("syntax.json", "{ replicas: ")}`)).toMatch(/syntax\.json is not JSON/);
    expect(bad(`@${file("empty.json", '{ "replicas": [] }')}`)).toMatch(
      /empty\.json: replicas lists no replica/,
    );
    expect(bad(`@${file("url.json", '{ "replicas": [{ "url": "gpu1" }] }')}`)).toMatch(
      /url\.json: replicas\.0\.url expected a URL/,
    );
    expect(bad(`@${file("extra.json", '{ "replicas": [{ "url": "http://a/v1", "weight": 2 }] }')}`)).toMatch(
      /extra\.json: replicas\.0 /,
    );
  });
});
