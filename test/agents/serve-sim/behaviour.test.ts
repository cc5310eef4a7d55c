import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFF_FORMAT_TEXTS, type SimServer, startSimServer } from "../../../agents/serve-sim/index.ts";
import { CHOICE_PRESETS, logitChoiceProbabilities } from "../../../agents/sim/index.ts";
import { DEFAULT_HOTEL_POOL } from "../../../datasets/hotels/index.ts";
import { buildChoiceTasks } from "../../../environments/choice/design.ts";
import { parseChoiceAnswer } from "../../../environments/choice/parse.ts";
import type { ChoiceTask } from "../../../environments/choice/types.ts";
import { binaryTasks, CHOOSE_TOOL_DEF, chosenLetter, messagesFor, pool, postFast } from "./helpers.ts";

const servers: SimServer[] = [];
async function start(options: Parameters<typeof startSimServer>[0] = {}): Promise<SimServer> {
  const s = await startSimServer({ port: 0, ...options });
  servers.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

let clean: SimServer;
beforeAll(async () => {
  clean = await start();
});

const BINARY = binaryTasks(150); // 300 tasks: every pair in both orders
const FIVES = buildChoiceTasks(
  { seed: 11, pairs: 0, triples: 0, fives: 40, fiveAppearances: 1 },
  DEFAULT_HOTEL_POOL,
);

/** Slot chosen by `model` for every task (one request each, concurrency 32); null for no letter. */
async function slots(server: SimServer, model: string, tasks: ChoiceTask[], extra: object = {}) {
  return pool(tasks, 32, async (task) => {
    const r = await postFast(server.url, { model, messages: messagesFor(task), ...extra });
    const letter = chosenLetter(r.json);
    return letter === null ? null : letter.charCodeAt(0) - 65;
  });
}

function withinSd(observed: number, expected: number, variance: number, k = 4): void {
  expect(Math.abs(observed - expected)).toBeLessThanOrEqual(k * Math.sqrt(variance) + 1);
}

describe("serve-sim decisions", () => {
  it("gives identical answers to identical requests, and independent samples for different seeds", async () => {
    const tasks = BINARY.slice(0, 60);
    const first = await slots(clean, "sim-noisy", tasks, { temperature: 0.7 });
    const again = await slots(clean, "sim-noisy", tasks, { temperature: 0.7 });
    expect(again).toEqual(first);
    const replica = await start(); // same server seed: same answers
    expect(await slots(replica, "sim-noisy", tasks, { temperature: 0.7 })).toEqual(first);

    const seeded1 = await slots(clean, "sim-noisy", tasks, { seed: 1 });
    const seeded2 = await slots(clean, "sim-noisy", tasks, { seed: 2 });
    const differ = seeded1.filter((s, i) => s !== seeded2[i]).length;
    expect(differ).toBeGreaterThan(12); // near-indifferent shopper: about half differ
    expect(await slots(clean, "sim-noisy", tasks, { seed: 1 })).toEqual(seeded1);
    // The answer mode never changes the decision (sim-noisy's own off-format replies are text in both).
    expect(await slots(clean, "sim-noisy", tasks, { seed: 1, tools: [CHOOSE_TOOL_DEF] })).toEqual(seeded1);
  });

  it("sim-steep's choice shares match its logit probabilities on binary tasks", async () => {
    const params = CHOICE_PRESETS.steep!.params!;
    const chosen = await slots(clean, "sim-steep", BINARY);
    let obsA = 0;
    let expA = 0;
    let varA = 0;
    let hit = 0;
    let expHit = 0;
    let varHit = 0;
    BINARY.forEach((task, i) => {
      const p = logitChoiceProbabilities(task.options, params);
      const slot = chosen[i];
      expect(slot === 0 || slot === 1).toBe(true);
      const pa = p[0]!;
      obsA += slot === 0 ? 1 : 0;
      expA += pa;
      varA += pa * (1 - pa);
      hit += p[slot as number]!;
      const sq = p.reduce((a, x) => a + x * x, 0);
      expHit += sq;
      varHit += p.reduce((a, x) => a + x * x * x, 0) - sq * sq;
    });
    withinSd(obsA, expA, varA);
    withinSd(hit, expHit, varHit);
    // The check has teeth: the steep shopper is far from a coin flip on these tasks.
    expect(expHit / BINARY.length).toBeGreaterThan(0.7);
  });

  it("sim-primacy's slot shares match its logit probabilities on five-option tasks", async () => {
    const params = CHOICE_PRESETS.primacy!.params!;
    const chosen = await slots(clean, "sim-primacy", FIVES);
    for (let slot = 0; slot < 5; slot++) {
      let obs = 0;
      let exp = 0;
      let variance = 0;
      FIVES.forEach((task, i) => {
        const p = logitChoiceProbabilities(task.options, params)[slot]!;
        obs += chosen[i] === slot ? 1 : 0;
        exp += p;
        variance += p * (1 - p);
      });
      withinSd(obs, exp, variance);
    }
  });

  it("sim-locked books the first-shown option ~97% of the time, sim-locked-last the last", async () => {
    const locked = await slots(clean, "sim-locked", BINARY);
    const shareA = locked.filter((s) => s === 0).length / locked.length;
    expect(shareA).toBeGreaterThan(0.95); // 0.97 + 0.03 / 2 expected
    const last = await slots(clean, "sim-locked-last", FIVES);
    expect(last.filter((s) => s === 4).length / last.length).toBeGreaterThan(0.9); // 0.95 + 0.05 / 5
  });
});

describe("serve-sim fault injection", () => {
  it("injects faults at the configured rates without changing the decisions", async () => {
    const rates = {
      rate429: 0.1,
      rate500: 0.05,
      rateTimeout: 0.05,
      rateMalformedJson: 0.05,
      rateOffFormat: 0.1,
    };
    const faulty = await start({ faults: rates, timeoutMs: 30, retryAfterSeconds: 2 });
    const tasks = BINARY.slice(0, 100);
    const truth = await slots(clean, "sim-steep", tasks);
    const requests = Array.from({ length: 1000 }, (_, i) => i % tasks.length);
    const seen = { ok: 0, "429": 0, "500": 0, timeout: 0, malformed: 0, "off-format": 0 };
    await pool(requests, 64, async (t) => {
      let r: Awaited<ReturnType<typeof postFast>>;
      try {
        r = await postFast(faulty.url, { model: "sim-steep", messages: messagesFor(tasks[t]!) });
      } catch {
        seen.timeout++;
        return;
      }
      if (r.status === 429) {
        expect(r.headers.get("retry-after")).toBe("2");
        expect(r.json.error.code).toBe("rate_limit_exceeded");
        seen["429"]++;
      } else if (r.status === 500) {
        expect(r.json.error.type).toBe("server_error");
        seen["500"]++;
      } else if (r.json === null) {
        expect(r.status).toBe(200);
        seen.malformed++;
      } else {
        const letter = chosenLetter(r.json);
        if (letter === null) seen["off-format"]++;
        else {
          seen.ok++;
          expect(letter.charCodeAt(0) - 65).toBe(truth[t]); // fault draws never touch decisions
        }
      }
    });
    const expected = { "429": 100, "500": 50, timeout: 50, malformed: 50, "off-format": 100, ok: 650 };
    for (const [outcome, n] of Object.entries(expected)) {
      withinSd(seen[outcome as keyof typeof seen], n, (n * (1000 - n)) / 1000);
    }
    const stats = faulty.stats();
    expect(stats.requests).toBe(1000);
    expect(stats.byModel["sim-steep"]).toBe(1000);
    expect(stats.byOutcome).toEqual({ ...seen, "bad-request": 0, dropped: 0, unauthorized: 0, limited: 0 });
    expect(stats.maxInFlight).toBeGreaterThan(1);
    await expect.poll(() => faulty.stats().inFlight).toBe(0);
  });

  it("off-format texts are non-responses, also in tools mode", async () => {
    for (const text of OFF_FORMAT_TEXTS) {
      expect(parseChoiceAnswer(text, ["A", "B"]).ok).toBe(false);
      expect(parseChoiceAnswer(text, ["A", "B", "C", "D", "E"], "cot").ok).toBe(false);
    }
    const off = await start({ faults: { rateOffFormat: 1 } });
    const r = await postFast(off.url, {
      model: "sim-steep",
      messages: messagesFor(BINARY[0]!),
      tools: [CHOOSE_TOOL_DEF],
    });
    expect(r.status).toBe(200);
    expect(r.json.choices[0].finish_reason).toBe("stop");
    expect(r.json.choices[0].message.tool_calls).toBeUndefined();
    expect(OFF_FORMAT_TEXTS).toContain(r.json.choices[0].message.content);
  });

  it("malformed answers are 200 with invalid JSON; timeouts hang, then drop the connection", async () => {
    const malformed = await start({ faults: { rateMalformedJson: 1 } });
    const m = await postFast(malformed.url, { model: "sim-steep", messages: messagesFor(BINARY[0]!) });
    expect(m.status).toBe(200);
    expect(m.headers.get("content-type")).toBe("application/json");
    expect(() => JSON.parse(m.text)).toThrow();
    expect(m.text.startsWith('{"id":"chatcmpl-')).toBe(true);

    const hang = await start({ faults: { rateTimeout: 1 }, timeoutMs: 150 });
    const t0 = performance.now();
    await expect(
      postFast(hang.url, { model: "sim-steep", messages: messagesFor(BINARY[0]!) }),
    ).rejects.toThrow();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    expect(hang.stats().byOutcome.timeout).toBe(1);
  });

  it("adds latency without serialising requests, and close() drops held requests at once", async () => {
    const slow = await start({ latencyMs: 100 });
    const t0 = performance.now();
    await slots(slow, "sim-steep", BINARY.slice(0, 32));
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThan(1500); // serialised, 32 requests would take 3.2 s

    const held = await startSimServer({ port: 0, faults: { rateTimeout: 1 }, timeoutMs: 60_000 });
    const pending = postFast(held.url, { model: "sim-steep", messages: messagesFor(BINARY[0]!) });
    await expect.poll(() => held.stats().byOutcome.timeout).toBe(1);
    const c0 = performance.now();
    await held.close();
    expect(performance.now() - c0).toBeLessThan(1000);
    await expect(pending).rejects.toThrow();
  });

  it("rejects impossible fault rates", async () => {
    await expect(startSimServer({ faults: { rate429: 0.7, rate500: 0.7 } })).rejects.toThrow(RangeError);
    await expect(startSimServer({ faults: { rateTimeout: -0.1 } })).rejects.toThrow(/rateTimeout/);
  });
});
