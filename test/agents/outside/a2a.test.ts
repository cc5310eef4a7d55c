/**
 * `a2a:<url>` end to end in this process: `bazaar run` (the CLI's own code, in process) against A2A
 * agents on the official SDK (test/fixtures/a2a/agent.ts) on loopback.
 *
 * - Equivalence: bazaar's simulated policies played behind A2A — through the episode's MCP endpoint
 *   the opening message hands them — store what the same policies store natively, call for call
 *   (shop without a client, over message/send and message/stream, A2A v1.0 and v0.3's wire format;
 *   a bargaining buyer); the policies are seeded by what any agent knows of its trial (reseeded.ts),
 *   so both draw the same numbers.
 * - The client's conversation: the asking shopper's questions, said as `input-required`, get the sim
 *   client's answers in the same task, and the stored conversation is the native one.
 * - Faults, one test each: no card, a card without an endpoint, `failed`, `rejected`, `completed`
 *   too early, an agent that never answers (--episode-timeout: a failed trial the same command
 *   plays again), one that dies mid-run and comes back, a reply that is not JSON-RPC, an agent that
 *   asks for credentials, one that only talks.
 * - Security: a header given by `$VAR` reaches the agent, never the store, an export or the output.
 *
 * The process-level runs (the example agent, kill -9 of bazaar, several runners) are in
 * test/e2e/a2a-agent.long.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { A2aAgents } from "../../../agents/outside/a2a-agents.ts";
import { cardUrlOf } from "../../../agents/outside/a2a-card.ts";
import { MAX_UNHEARD, NOTHING_TO_ADD } from "../../../agents/outside/a2a-episode.ts";
import { parseA2aHeaders, redactor } from "../../../agents/outside/a2a-headers.ts";
import { UserError } from "../../../environments/kernel/errors.ts";
import { Store } from "../../../environments/store/index.ts";
import { type RunningA2a, startA2aAgent, startRawA2a } from "../../fixtures/a2a/agent.ts";
import { runInProcess, tempDir } from "../../helpers/cli.ts";
import { outcomes, playNatively, storedRecords } from "../../helpers/serve.ts";

const running: RunningA2a[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((a) => a.close()));
  delete process.env.BAZAAR_A2A_TEST_TOKEN;
});

async function agent(opts: Parameters<typeof startA2aAgent>[0]): Promise<RunningA2a> {
  const a = await startA2aAgent(opts);
  running.push(a);
  return a;
}

/** `bazaar run <env> <args> --store <dir>/<file> --json` in process. */
function run(env: string, args: string[], dir: string, file = "a2a.db") {
  return runInProcess(["run", env, ...args, "--store", path.join(dir, file), "--json"]);
}

function trialCount(dir: string, file: string): { stored: number; failed: number; seqs: number[] } {
  const store = Store.open(path.join(dir, file), { create: false });
  try {
    const [r] = store.listRuns();
    const rows = [...store.trialRows(r!.id)];
    return {
      stored: rows.length,
      failed: r!.failed ?? 0,
      seqs: rows.map((x) => x.seq).sort((a, b) => a - b),
    };
  } finally {
    store.close();
  }
}

const SHOP = ["--tasks", "6", "--replicates", "1", "--limit", "6"];
const SHOP_FIELDS = ["endReason", "booked", "success", "nonResponse", "steps"];

/** Each trial's calls, in order: what the agent did (without turn numbers: one MCP call is one message). */
function calls(records: Record<string, unknown>[]): Map<string, unknown> {
  return new Map(
    records.map((r) => [
      `${r.taskId}/${r.replicate}`,
      (r.trajectory as { tool: string; args: unknown; ok: boolean }[]).map((c) => [c.tool, c.args, c.ok]),
    ]),
  );
}

describe("--a2a-header and the URL of a2a:", () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax is what is tested
  it("reads $VAR and ${VAR} from the environment, keeps $$ literal, and refuses what no header can be", () => {
    const env = { TOKEN: "tok-123456", ORG: "acme" };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax is what is tested
    expect(parseA2aHeaders(["Authorization=Bearer $TOKEN", "X-Org=${ORG}-$$5"], env)).toEqual([
      { name: "Authorization", value: "Bearer tok-123456" },
      { name: "X-Org", value: "acme-$5" },
    ]);
    expect(() => parseA2aHeaders(["Authorization"], env)).toThrow(/expected name=value/);
    expect(() => parseA2aHeaders(["Bad Name=x"], env)).toThrow(/not an HTTP header name/);
    expect(() => parseA2aHeaders(["A2A-Version=0.3"], env)).toThrow(/sets this header itself/);
    expect(() => parseA2aHeaders(["X-A=1", "x-a=2"], env)).toThrow(/given twice/);
    const missing = (() => {
      try {
        parseA2aHeaders(["Authorization=Bearer $NOPE"], env);
      } catch (e) {
        return e as UserError;
      }
    })();
    expect(missing).toBeInstanceOf(UserError);
    expect(missing!.message).toBe("--a2a-header Authorization: $NOPE is not set in bazaar's environment");
    const redact = redactor(parseA2aHeaders(["Authorization=Bearer $TOKEN"], env));
    expect(redact("echo: Bearer tok-123456 and tok-123456")).toBe("echo: [redacted] and [redacted]");
  });

  it("finds the card under the agent's URL, or at a .json URL as given", () => {
    expect(cardUrlOf("http://127.0.0.1:9999")).toBe("http://127.0.0.1:9999/.well-known/agent-card.json");
    expect(cardUrlOf("https://agents.example.com/buyer")).toBe(
      "https://agents.example.com/buyer/.well-known/agent-card.json",
    );
    expect(cardUrlOf("https://h/cards/shopper.json")).toBe("https://h/cards/shopper.json");
    expect(() => cardUrlOf("ftp://h/x")).toThrow(/http: or https:/);
    expect(() => cardUrlOf("https://u:p@h/")).toThrow(/holds credentials/);
    expect(() => cardUrlOf("not a url")).toThrow(/not a URL/);
  });
});

describe("a2a: agents play as natively", () => {
  for (const wire of [
    { streaming: false, legacy: false, methods: ["GetTask", "SendMessage"] },
    { streaming: true, legacy: false, methods: ["GetTask", "SendStreamingMessage"] },
    { streaming: false, legacy: true, methods: ["tasks/get", "message/send"] },
  ])
    it(`shop without a client, ${wire.legacy ? "A2A v0.3 (message/send)" : `A2A v1.0 (${wire.methods[1]})`}: the careful shopper's calls and outcomes`, async () => {
      const dir = tempDir();
      const a = await agent({ behaviour: "play:sim:careful", ...wire, name: "careful", version: "2.1" });
      const r = await run("shop", [...SHOP, "--agent", `a2a:${a.url}`], dir);
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ stored: 6, failed: 0 });
      expect([...new Set(a.requests.map((q) => q.method).filter((m) => m !== "card"))].sort()).toEqual(
        [...wire.methods].sort(),
      );
      const viaA2a = await storedRecords(dir, "a2a.db");
      const native = await playNatively("shop", "shopper", [...SHOP, "--agent", "sim:careful"], dir);
      expect(outcomes(viaA2a, SHOP_FIELDS)).toEqual(outcomes(native, SHOP_FIELDS));
      expect(calls(viaA2a)).toEqual(calls(native));
      // One task per episode, each opened by the task's text.
      expect(a.heard.size).toBe(6);
      for (const said of a.heard.values()) expect(said).toHaveLength(1);
      // The identity is the card's.
      const store = Store.open(path.join(dir, "a2a.db"), { create: false });
      try {
        expect(JSON.stringify(store.listRuns()[0])).toContain('"agent":"a2a:careful@2.1"');
      } finally {
        store.close();
      }
    });

  it("a bargaining buyer: the linear tactic's deals, prices and turns", async () => {
    const dir = tempDir();
    const a = await agent({ behaviour: "play:rule:linear", streaming: true });
    const design = ["--scenarios", "4", "--replicates", "1"];
    const r = await run("bargain", [...design, "--buyer", `a2a:${a.url}`, "--seller", "rule:boulware"], dir);
    expect(r.code, r.err).toBe(0);
    const viaA2a = await storedRecords(dir, "a2a.db");
    const native = await playNatively(
      "bargain",
      "buyer",
      [...design, "--limit", "4", "--buyer", "rule:linear", "--seller", "rule:boulware"],
      dir,
    );
    const fields = ["outcome", "dealPrice", "endedBy", "turns"];
    expect(viaA2a).toHaveLength(4);
    expect(outcomes(viaA2a, fields)).toEqual(outcomes(native, fields));
  });
});

describe("the client's conversation over A2A", () => {
  it("input-required questions get the sim client's answers in the same task; the stored conversation is the native asking shopper's", async () => {
    const dir = tempDir();
    const a = await agent({ behaviour: "play:sim:asks-first", streaming: true });
    const design = [
      "--tasks",
      "6",
      "--replicates",
      "1",
      "--limit",
      "12",
      "--client",
      "sim:terse,sim:partial",
    ];
    const r = await run("shop", [...design, "--agent", `a2a:${a.url}`], dir);
    expect(r.code, r.err).toBe(0);
    const viaA2a = await storedRecords(dir, "a2a.db");
    const native = await playNatively("shop", "shopper", [...design, "--agent", "sim:asks-first"], dir);
    const fields = ["endReason", "booked", "success", "regret", "conversation", "burden", "uncovered"];
    expect(viaA2a).toHaveLength(12);
    const byClient = (rs: Record<string, unknown>[], client: string) =>
      outcomes(
        rs.filter((x) => (x.client as { spec: string }).spec === client),
        fields,
      );
    for (const client of ["sim:terse", "sim:partial"])
      expect(byClient(viaA2a, client)).toEqual(byClient(native, client));
    // Every question went over A2A (none through the message_client tool), each answer back in the
    // same task: a task per episode, hearing the client's opening, then each reply as message_client's
    // result gives it (the client's words, then the step count).
    expect(a.heard.size).toBe(12);
    const client = (x: Record<string, unknown>) =>
      (x.conversation as { from: string; text: string }[])
        .filter((m) => m.from === "client")
        .map((m) => m.text);
    const heard = [...a.heard.values()]
      .map((said) =>
        said.map((t, i) =>
          i === 0 ? t : t.replace(/^Client: /, "").replace(/\n\[\d+ of \d+ tool calls used\]$/, ""),
        ),
      )
      .map((said) => said.join("\n---\n"))
      .sort();
    expect(heard).toEqual(viaA2a.map((x) => client(x).join("\n---\n")).sort());
    expect(viaA2a.some((x) => (x.burden as { messages: number }).messages >= 3)).toBe(true);
  });
});

describe("a2a: faults are never answers, and never lose a trial", () => {
  it("no card: exit 2 with what to fix, nothing stored", async () => {
    const dir = tempDir();
    const raw = await startRawA2a(
      () => "{}",
      () => undefined,
    );
    running.push(raw);
    // A server with no card (404), then nothing listening at all.
    const bare = await startA2aAgent({ behaviour: "fail", card: () => ({}) });
    await bare.close();
    const r = await run("shop", [...SHOP, "--agent", `a2a:${bare.url}`], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /the agent does not answer \(no Agent Card at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json: ECONNREFUSED\)/,
    );
    expect(r.err.trim().split("\n")).toHaveLength(2);
    const r404 = await run("shop", [...SHOP, "--agent", `a2a:${raw.url}/nowhere`], dir);
    expect(r404.code).toBe(2);
    expect(r404.err).toMatch(/no Agent Card at .*\/nowhere\/\.well-known\/agent-card\.json \(HTTP 404\)/);
    expect(existsSync(path.join(dir, "a2a.db"))).toBe(false);
  });

  it("a card without an endpoint URL (or a name, or JSON) stops the run before any trial", async () => {
    const dir = tempDir();
    const cases: [unknown, RegExp][] = [
      [
        {
          name: "x",
          version: "1",
          protocolVersion: "0.3.0",
          capabilities: {},
          defaultInputModes: [],
          defaultOutputModes: [],
          skills: [],
        },
        /names no endpoint URL/,
      ],
      [{ name: "x", version: "1", supportedInterfaces: [] }, /names no endpoint URL/],
      [
        {
          version: "1",
          supportedInterfaces: [
            { url: "http://127.0.0.1:1/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
          ],
        },
        /has no name/,
      ],
      [
        {
          name: "x",
          version: "1",
          supportedInterfaces: [{ url: "127.0.0.1:1", protocolBinding: "GRPC", protocolVersion: "1.0" }],
        },
        /offers only GRPC/,
      ],
      [[1, 2], /is not a JSON object/],
    ];
    for (const [card, want] of cases) {
      const raw = await startRawA2a(
        () => "{}",
        () => card,
      );
      running.push(raw);
      const r = await run("shop", [...SHOP, "--agent", `a2a:${raw.url}`], dir);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(want);
      expect(raw.requests.map((q) => q.method)).toEqual(["card"]);
    }
    expect(existsSync(path.join(dir, "a2a.db"))).toBe(false);
  });

  it("failed, rejected and completed-too-early are the agent's non-answers, with its text", async () => {
    for (const [behaviour, want] of [
      [
        "fail",
        "the agent's A2A task ended (failed) before the episode was over: I cannot shop today: my catalog service is down.",
      ],
      ["reject", "the agent's A2A task ended (rejected) before the episode was over: I only book flights."],
      ["complete", "the agent's A2A task ended (completed) before the episode was over: All done!"],
    ] as const) {
      const dir = tempDir();
      const a = await agent({ behaviour });
      const r = await run("shop", [...SHOP, "--limit", "2", "--agent", `a2a:${a.url}`], dir);
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ stored: 2, failed: 0, nonResponsesNow: 2 });
      const records = await storedRecords(dir, "a2a.db");
      for (const rec of records) expect(JSON.stringify(rec.nonResponse)).toContain(want);
    }
  });

  it("an agent that never answers: a failed trial past --episode-timeout, which the same command plays again", async () => {
    const dir = tempDir();
    const hang = await agent({ behaviour: "hang" });
    const args = [...SHOP, "--limit", "2", "--agent", `a2a:${hang.url}`];
    const first = await run("shop", [...args, "--episode-timeout", "0.3"], dir);
    expect(first.code, first.err).toBe(3);
    expect(JSON.parse(first.out)).toMatchObject({ stored: 0, failed: 2 });
    expect(first.out).toContain("idle past --episode-timeout (0.3 s)");
    await hang.close();
    // The same agent, fixed, on the same URL: the same command completes the run.
    const fixed = await agent({ behaviour: "play:sim:careful", port: hang.port });
    const again = await run("shop", args, dir);
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ stored: 2, failed: 0, ranNow: 2 });
    expect(fixed.heard.size).toBe(2);
  });

  it("an agent that dies mid-run and comes back: the same command completes every trial, each once", async () => {
    const dir = tempDir();
    const first = await agent({ behaviour: "play:sim:careful", dieAfter: 2 });
    const args = [...SHOP, "--agent", `a2a:${first.url}`, "--concurrency", "1"];
    const r1 = await run("shop", args, dir);
    expect(r1.code, r1.err).toBe(3);
    const after1 = trialCount(dir, "a2a.db");
    expect(after1.stored).toBeGreaterThanOrEqual(2);
    expect(after1.stored).toBeLessThan(6);
    expect(r1.out).toContain("the A2A agent did not answer");
    const back = await agent({ behaviour: "play:sim:careful", port: first.port });
    const r2 = await run("shop", args, dir);
    expect(r2.code, r2.err).toBe(0);
    const after2 = trialCount(dir, "a2a.db");
    expect(after2.seqs).toEqual([0, 1, 2, 3, 4, 5]);
    expect(JSON.parse(r2.out)).toMatchObject({ stored: 6, failed: 0, ranNow: 6 - after1.stored });
    expect(back.heard.size).toBe(6 - after1.stored);
  });

  it("a reply that is not JSON-RPC is a failed trial, not an answer", async () => {
    const dir = tempDir();
    const raw = await startRawA2a((req) =>
      req.method === "GetTask"
        ? JSON.stringify({ jsonrpc: "2.0", id: req.id, error: { code: -32001, message: "Task not found" } })
        : "<html>502 Bad Gateway</html>",
    );
    running.push(raw);
    const r = await run("shop", [...SHOP, "--limit", "2", "--agent", `a2a:${raw.url}`], dir);
    expect(r.code, r.err).toBe(3);
    const json = JSON.parse(r.out);
    expect(json).toMatchObject({ stored: 0, failed: 2 });
    expect(r.out).toContain("the A2A agent's reply was not A2A");
    // A reply with a result that is no task or message: the same.
    const odd = await startRawA2a((req) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: req.id,
        ...(req.method === "GetTask"
          ? { error: { code: -32001, message: "no" } }
          : { result: { weird: true } }),
      }),
    );
    running.push(odd);
    const r2 = await run("shop", [...SHOP, "--limit", "1", "--agent", `a2a:${odd.url}`], dir, "odd.db");
    expect(r2.code, r2.err).toBe(3);
    expect(JSON.parse(r2.out)).toMatchObject({ stored: 0, failed: 1 });
  });

  it("an agent that asks for credentials mid-episode stops the run; one that only talks gives its non-answer", async () => {
    const dir = tempDir();
    const auth = await agent({ behaviour: "auth" });
    const r = await run("shop", [...SHOP, "--limit", "2", "--agent", `a2a:${auth.url}`], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/asks for authentication mid-episode \(auth-required: Please sign in first\.\)/);
    expect(r.err).toMatch(/--a2a-header/);
    const chatter = await agent({ behaviour: "chatter" });
    const r2 = await run(
      "shop",
      [...SHOP, "--limit", "1", "--agent", `a2a:${chatter.url}`],
      dir,
      "chatter.db",
    );
    expect(r2.code, r2.err).toBe(0);
    const [rec] = await storedRecords(dir, "chatter.db");
    expect(JSON.stringify(rec!.nonResponse)).toContain(
      `the agent only talked: ${MAX_UNHEARD} messages in a row`,
    );
    // Each unheard message was answered by the fixed line, in the same task.
    const [said] = [...chatter.heard.values()];
    expect(said!.slice(1)).toEqual(Array(MAX_UNHEARD - 1).fill(NOTHING_TO_ADD));
  });
});

describe("--a2a-header secrets", () => {
  it("reach the agent, and never the store, an export or bazaar's output — even echoed back by the agent", async () => {
    const dir = tempDir();
    const secret = "s3cr3t-a2a-token-5f1c";
    process.env.BAZAAR_A2A_TEST_TOKEN = secret;
    const a = await agent({ behaviour: "play:sim:careful" });
    const header = ["--a2a-header", "Authorization=Bearer $BAZAAR_A2A_TEST_TOKEN"];
    const r = await run("shop", [...SHOP, "--limit", "2", "--agent", `a2a:${a.url}`, ...header], dir);
    expect(r.code, r.err).toBe(0);
    expect(a.requests.length).toBeGreaterThan(2);
    for (const q of a.requests) expect(q.headers.authorization).toBe(`Bearer ${secret}`);
    // An agent whose error page quotes the credential back: the failure kept is redacted.
    const echo = await startRawA2a((req) =>
      req.method === "GetTask"
        ? JSON.stringify({ jsonrpc: "2.0", id: req.id, error: { code: -32001, message: "no such task" } })
        : JSON.stringify({
            jsonrpc: "2.0",
            id: req.id,
            error: { code: -32603, message: `bad token Bearer ${secret}` },
          }),
    );
    running.push(echo);
    const r2 = await run("shop", [...SHOP, "--limit", "1", "--agent", `a2a:${echo.url}`, ...header], dir);
    expect(r2.code, r2.err).toBe(3);
    expect(echo.requests.every((q) => q.headers.authorization === `Bearer ${secret}`)).toBe(true);
    const store = Store.open(path.join(dir, "a2a.db"), { create: false });
    const runs = store.listRuns();
    const failures = runs.flatMap((x) => store.failedTrials(x.id).map((f) => JSON.stringify(f)));
    store.close();
    expect(runs).toHaveLength(2);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain("bad token [redacted]");
    const exported: string[] = [];
    for (const run of runs) {
      const file = path.join(dir, `${run.id}.jsonl`);
      const e = await runInProcess(["export", run.id, "--store", path.join(dir, "a2a.db"), "--out", file]);
      expect(e.code, e.err).toBe(0);
      exported.push(readFileSync(file, "utf8"));
    }
    const a2 = await runInProcess(["analyze", runs[0]!.id, "--store", path.join(dir, "a2a.db"), "--json"]);
    const said = [r.out, r.err, r2.out, r2.err, a2.out, a2.err, ...exported].join("\n");
    expect(said).not.toContain(secret);
    for (const f of readdirSync(dir)) expect(readFileSync(path.join(dir, f)).includes(secret), f).toBe(false);
  });

  it("is read once, when the run starts, and never enters the identity", () => {
    const agents = new A2aAgents(parseA2aHeaders(["X-Key=$K"], { K: "abcdef" }));
    expect(agents.headers).toEqual([{ name: "X-Key", value: "abcdef" }]);
    expect(agents.redact("key abcdef")).toBe("key [redacted]");
  });
});
