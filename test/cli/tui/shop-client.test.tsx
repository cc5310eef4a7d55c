/**
 * The shop episode view with a client: the conversation drawn in order between the tool calls it
 * interleaves with (each message attributed, wrapped and never cut, faults under the reply that has
 * them, the machine's patience line marked), the client's score in the summary, in replay and in
 * flight, in the plain output and in the episode list. Records are made by real episodes in
 * process (client-fixtures.ts).
 */
import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { EpisodeList } from "../../../cli/tui/components/EpisodeList.tsx";
import { EpisodeView } from "../../../cli/tui/components/EpisodeView.tsx";
import { feedText } from "../../../cli/tui/components/feed.ts";
import { plainEpisode } from "../../../cli/tui/plain.ts";
import {
  adapterFor,
  episodeModel,
  episodeSummary,
  type TrialRecord,
} from "../../../cli/tui/records/index.ts";
import { liveModel } from "../../../cli/tui/records/live.ts";
import type { ShopEpisodeModel } from "../../../cli/tui/records/shop.ts";
import { JUST_BOOK } from "../../../environments/shop/client/wording.ts";
import { type PlayedEpisode, playEpisode, scripted, talkativeClient, taskOf } from "./client-fixtures.ts";
import { lines, widest } from "./fixtures.ts";
import { haggleRun } from "./negotiation-fixtures.ts";

afterEach(() => cleanup());

interface Message {
  step: number;
  from: "agent" | "client";
  text: string;
  machine?: boolean;
  faults?: { kind: string; detail: string }[];
}

const LONG =
  "My budget is at most $9,999 a night, and while we are at it I should say that I travel a lot for work, so what I really care about is a quiet room where I can sleep before an early meeting, a desk, and staff who do not mind a late check-in after a delayed flight from the West Coast.";

let talk: PlayedEpisode;
let faulty: PlayedEpisode;
let impatient: PlayedEpisode;
let plainShop: TrialRecord;

beforeAll(async () => {
  talk = await playEpisode(taskOf("open"), "asks-first", "terse", 4);
  faulty = await playEpisode(
    taskOf("open"),
    "asks-first",
    talkativeClient("scripted:talkative", (n) => (n === 1 ? LONG : "I have no preference on that.")),
    5,
  );
  // Six messages to a client whose patience is three: three answers, the machine's line, the end.
  impatient = await playEpisode(
    taskOf("open"),
    scripted(
      "scripted:pesters",
      Array.from({ length: 6 }, (_, i) => ({
        type: "message_client",
        text: `Question ${i + 1}: anything else?`,
      })),
    ),
    "complete",
    6,
  );
  const { conversation: _c, client: _cl, ...rest } = talk.record as Record<string, unknown>;
  plainShop = rest;
});

function view(record: TrialRecord, o: { step?: number; width?: number; height?: number } = {}): string {
  const model = episodeModel(record);
  const width = o.width ?? 100;
  const { lastFrame } = render(
    <Box width={width}>
      <EpisodeView model={model} step={o.step ?? model.steps} width={width} height={o.height ?? 80} />
    </Box>,
  );
  return lastFrame() ?? "";
}

/** The frame as one line of words: a wrapped message reads whole again. */
const flat = (frame: string) => lines(frame).join(" ").replace(/\s+/g, " ");
const words = (text: string) => text.replace(/\s+/g, " ").trim();

function conversation(r: TrialRecord): Message[] {
  return r.conversation as Message[];
}

/** Asserts each text is in the flattened frame, in this order. */
function inOrder(frame: string, texts: readonly string[]): void {
  const f = flat(frame);
  let at = 0;
  for (const t of texts) {
    const i = f.indexOf(words(t), at);
    expect(i, `"${t}" after position ${at} in:\n${frame}`).toBeGreaterThanOrEqual(0);
    at = i + words(t).length;
  }
}

describe("a shop episode with a client (replay)", () => {
  it("shows who played the client, its opening, and every message between the calls it interleaves with", () => {
    const r = talk.record;
    const f = view(r);
    expect(f).toContain(`episode #4 · sim:asks-first for sim:terse · shop`);
    expect(f).toContain("client sim:terse (terse persona, patience 6)");
    expect(f).toMatch(/hidden requirements — Price: at most \$\d+ a night/);
    expect(f).toMatch(/^opening +client +I need a hotel room in New York for one night\./m);
    // The conversation, whole and in order, then the calls that followed it.
    const said = conversation(r);
    expect(said.filter((m) => m.from === "agent").length).toBeGreaterThanOrEqual(3);
    inOrder(
      f,
      said.map((m) => m.text),
    );
    // Each message to the client in its call's place, attributed; its reply under it.
    for (const m of said.filter((x) => x.from === "agent")) {
      const reply = said.find((x) => x.from === "client" && x.step === m.step)!;
      expect(f).toMatch(
        new RegExp(
          `^#\\s*${m.step} m\\d+ +agent +${escapeRe(m.text)}\\n +client +${escapeRe(reply.text.split("\n")[0]!)}`,
          "m",
        ),
      );
    }
    // The searches come after the last answer they rest on.
    const lastAsk = Math.max(...said.map((m) => m.step));
    const search = (r.trajectory as { step: number; tool: string }[]).find((c) => c.tool === "search")!;
    expect(search.step).toBeGreaterThan(lastAsk);
    inOrder(f, [said.at(-1)!.text, `#${String(search.step).padStart(2)} m`]);
    expect(widest(f)).toBeLessThanOrEqual(100);
  });

  it("sums up the episode for the client: regret, surplus, the best admissible listing, each hidden requirement, burden", () => {
    const r = talk.record;
    const best = r.bestAdmissible as { id: string; surplus: number };
    const name = (r.admissible as { id: string; name: string }[]).find((l) => l.id === best.id)!.name;
    const f = flat(view(r));
    expect(f).toMatch(/✓ success — booked \w+ /);
    expect(f).toContain(`regret $${(r.regret as number).toFixed(2)} a night`);
    expect(f).toContain(`surplus $${(r.surplus as number).toFixed(2)}`);
    expect(f).toContain(`best admissible ${best.id} ${name} $${best.surplus.toFixed(2)}`);
    const u = r.uncovered as { hidden: string[]; learned: string[] };
    expect(u.learned).toEqual(u.hidden);
    expect(f).toMatch(/hidden: price ≤ \$\d+ learned/);
    const b = r.burden as { messages: number };
    expect(f).toContain(`${b.messages} messages to the client · 0 repeats · patience held · no client fault`);
  });

  it("grows with the calls shown: the opening first, each exchange with its call, the summary only at the end", () => {
    const r = talk.record;
    const said = conversation(r);
    const first = view(r, { step: 0 });
    expect(first).toContain("I need a hotel room in New York");
    expect(first).not.toContain(said[1]!.text);
    expect(first).toMatch(/call 0 of \d+/);
    const two = view(r, { step: 2 });
    for (const m of said.filter((x) => x.step <= 2)) expect(flat(two)).toContain(words(m.text));
    for (const m of said.filter((x) => x.step > 2)) expect(flat(two)).not.toContain(words(m.text));
    expect(two).not.toContain("regret");
  });

  it("wraps a long reply whole at 80 columns and marks its faults under it (kind and detail)", () => {
    const r = faulty.record;
    const said = conversation(r);
    const reply = said.find((m) => m.from === "client" && m.text === LONG)!;
    expect(reply.faults?.length ?? 0).toBeGreaterThan(0);
    const f = view(r, { width: 80 });
    expect(widest(f)).toBeLessThanOrEqual(80);
    // Whole, on rows of its own under the speaker column, then each fault.
    inOrder(f, [LONG, ...reply.faults!.map((x) => `⚠ fault ${x.kind}: ${x.detail}`)]);
    const rows = lines(f);
    const firstRow = rows.findIndex((l) => /^ +client +My budget is at most \$9,999/.test(l));
    expect(firstRow).toBeGreaterThan(0);
    expect(rows[firstRow + 1]).toMatch(/^ {16}\S/); // continued under the text, not the gutter
    const n = (r.clientFaults as unknown[]).length;
    expect(flat(f)).toContain(`${n} client fault${n === 1 ? "" : "s"}`);
  });

  it("marks the machine's patience line as the machine's, and a client that ended the conversation", () => {
    const r = impatient.record;
    expect(r.endReason).toBe("client-ended");
    const said = conversation(r);
    expect(said.some((m) => m.machine === true)).toBe(true);
    const f = view(r);
    expect(f).toMatch(/^ +machine +Please just book/m);
    expect(flat(f)).toContain(`machine ${JUST_BOOK} [the machine's line: the client's patience ran out]`);
    expect(f).toContain("(the client ended the conversation)");
    expect(flat(f)).toContain("✗ failure — the client ended the conversation");
    expect(flat(f)).toContain("patience ran out");
    // Every question is there, whole, in order.
    inOrder(
      f,
      said.filter((m) => m.from === "agent").map((m) => m.text),
    );
  });

  it("fits 80×24's episode area: the summary and the latest exchange on screen, nothing cut", () => {
    for (const r of [talk.record, faulty.record, impatient.record]) {
      // The replay at 80×24 gives the episode view 16 rows (its title included).
      const f = view(r, { width: 80, height: 16 });
      expect(lines(f).length).toBeLessThanOrEqual(16);
      expect(widest(f)).toBeLessThanOrEqual(80);
      expect(f).toMatch(/regret \$[\d,.]+ a night/);
      expect(f).toMatch(/messages? to the client/);
      expect(f).toMatch(/… \d+ earlier calls?/);
      // The last call is on screen.
      const last = (r.trajectory as { step: number }[]).at(-1)!;
      expect(f).toMatch(new RegExp(`^#\\s*${last.step} m\\d+`, "m"));
    }
  });

  it("a shop episode without a client is drawn as it always was", () => {
    const m = episodeModel(plainShop) as ShopEpisodeModel;
    expect(m.client).toBeNull();
    const f = view(plainShop);
    expect(f).not.toContain("hidden requirements");
    expect(f).toMatch(/^# 1 m1 message_client\(\{"text":/m);
    expect(episodeSummary(plainShop).detail).toMatch(/ · \d+ calls$/);
  });
});

describe("a shop episode with a client, in flight", () => {
  it("replays the turns so far through the rules: the same conversation and calls as the record, growing", () => {
    const final = episodeModel(talk.record) as ShopEpisodeModel;
    let answering = 0;
    for (let k = 0; k <= talk.turns.length; k++) {
      const m = liveModel(
        "shop",
        { seq: 4, agent: talk.agent, startedAt: 0, turns: talk.turns.slice(0, k) },
        talk.task,
      ) as ShopEpisodeModel;
      expect(m.kind).toBe("shop");
      expect(m.live).toBe(true);
      expect(m.client?.score).toBeNull();
      // What the episode has so far is a beginning of what it ended with.
      expect(final.client!.messages.slice(0, m.client!.messages.length)).toEqual(m.client!.messages);
      expect(final.calls.slice(0, m.calls.length)).toEqual(m.calls);
      if (m.client!.answering !== null) {
        answering++;
        const live = render(<EpisodeView model={m} step={m.steps} width={100} height={40} />).lastFrame()!;
        expect(live).toContain(`the client is answering the message of call ${m.client!.answering}`);
        expect(live).toMatch(new RegExp(`^#\\s*${m.client!.answering} +agent +\\S`, "m"));
        expect(live).toMatch(/^ +client +…$/m);
      }
    }
    expect(answering).toBe((talk.record.burden as { messages: number }).messages);
  });

  it("before and after the opening", () => {
    const none = liveModel("shop", { seq: 4, agent: talk.agent, startedAt: 0, turns: [] }, talk.task);
    const f0 = render(<EpisodeView model={none} step={0} width={100} height={30} />).lastFrame()!;
    expect(f0).toContain("client sim:terse (persona not yet known)");
    expect(f0).toContain("the client is writing its opening");
    const opened = liveModel(
      "shop",
      { seq: 4, agent: talk.agent, startedAt: 0, turns: talk.turns.slice(0, 1) },
      talk.task,
    );
    const f1 = render(<EpisodeView model={opened} step={0} width={100} height={30} />).lastFrame()!;
    expect(f1).toContain("in flight");
    expect(f1).toContain("client sim:terse (terse persona, patience 6)");
    expect(f1).toMatch(/^opening +client +I need a hotel room/m);
    expect(f1).toContain("the shopper is choosing its next call");
  });
});

describe("a shop episode with a client, plain and in the list", () => {
  it("plain output: the client, each message whole on its line, faults, the score", () => {
    const r = faulty.record;
    const out = plainEpisode(episodeModel(r));
    expect(out).toContain("client scripted:talkative (terse persona, patience 6) · shopper sim:asks-first");
    expect(out).toContain("hidden requirements (the client's own):");
    expect(out.some((l) => l.startsWith("  client (opening): I need a hotel room"))).toBe(true);
    expect(out).toContain("call 1 (message 1): message_client");
    expect(out).toContain(`  client: ${LONG}`);
    const reply = conversation(r).find((m) => m.text === LONG)!;
    for (const x of reply.faults!) expect(out).toContain(`    fault ${x.kind}: ${x.detail}`);
    expect(out.indexOf(`  client: ${LONG}`)).toBeLessThan(
      out.indexOf(`    fault ${reply.faults![0]!.kind}: ${reply.faults![0]!.detail}`),
    );
    expect(out.some((l) => /^regret \$[\d,.]+ a night · surplus/.test(l))).toBe(true);
    expect(out.some((l) => /^hidden: /.test(l))).toBe(true);
    expect(
      out.some((l) =>
        /^\d+ messages to the client · \d+ repeats? · patience held · \d+ client faults?$/.test(l),
      ),
    ).toBe(true);
  });

  it("list: regret and messages first in the detail, agent names whole, the cursor's line in full at 80 columns", () => {
    const records = [talk.record, faulty.record, impatient.record];
    const s = episodeSummary(talk.record);
    expect(s.detail).toMatch(/^regret \$[\d,.]+ · \d+ messages · open · .+ · \d+ calls$/);
    expect(episodeSummary(faulty.record).detail).toMatch(/^regret \$[\d,.]+ · \d+ messages · \d+ faults? · /);
    const items = records.map((r) => ({ seq: Number(r.seq), summary: episodeSummary(r) }));
    for (let cursor = 0; cursor < items.length; cursor++) {
      const f = render(
        <EpisodeList
          items={items}
          cursor={cursor}
          width={80}
          height={20}
          moreBefore={false}
          moreAfter={false}
          loading={false}
        />,
      ).lastFrame()!;
      expect(widest(f)).toBeLessThanOrEqual(80);
      // Every name whole: one wider than its column goes on in the column below, never cut.
      expect(f).not.toMatch(/^.{11}\S*…/m);
      for (const it of items)
        for (const piece of it.summary.agent.split(" "))
          expect(f).toMatch(new RegExp(`^.{11}(\\S+ )*${escapeRe(piece)}( |$)`, "m"));
      // The cursor's detail, whole (wrapped between its parts).
      for (const part of items[cursor]!.summary.detail.split(" · ")) expect(flat(f)).toContain(words(part));
      expect(f).toContain("(end)");
    }
  });
});

describe("a shop episode with a client and offers", () => {
  it("draws the negotiations beside the conversation, and the client's score", async () => {
    const run = await haggleRun({ client: "sim:terse", tasks: "2" });
    run.store.close();
    const r = run.records.find((x) => Array.isArray(x.negotiations) && x.negotiations.length > 0)!;
    expect(r.client).toBeDefined();
    const f = view(r, { width: 100, height: 40 });
    expect(lines(f).length).toBeLessThanOrEqual(41);
    expect(widest(f)).toBeLessThanOrEqual(100);
    expect(f).toContain("client sim:terse (terse persona, patience 6)");
    expect(f).toMatch(/offers · \d+ negotiations?/);
    expect(f).toMatch(/seller-\d · list /);
    expect(f).toMatch(/regret \$[\d,.]+ a night/);
    expect(f).toContain("0 messages to the client");
  });
});

describe("a run with clients, in the running figures and the feed", () => {
  it("the statistics panel adds what the clients paid; a plain shop's panel is as it was", () => {
    const a = adapterFor("shop");
    const st = a.stats.init();
    const records = [talk.record, faulty.record, impatient.record];
    for (const r of records) a.stats.add(st, r);
    const regret = records.reduce((n, r) => n + (r.regret as number), 0) / records.length;
    const messages = records.reduce((n, r) => n + (r.burden as { messages: number }).messages, 0) / 3;
    expect(a.stats.view(st, null).lines.at(-1)).toEqual({
      label: "client",
      value: `regret $${regret.toFixed(2)} a night · ${messages.toFixed(1)} messages · 1 with a client fault`,
    });
    const plain = a.stats.init();
    a.stats.add(plain, plainShop);
    expect(a.stats.view(plain, null).lines.map((l) => l.label)).toEqual(["success", "by family", "search"]);
  });

  it("the feed keeps a client run's long agent names whole, on the lines below", () => {
    const label = "openai:sim-shop-asks-first for openai:sim-client-faulty";
    const summary = { ...episodeSummary(talk.record), agent: label };
    const text = feedText([{ kind: "episode", id: 1, summary }], 79, false, 32);
    const rows = text.split("\n");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^#4 +openai:sim-shop-asks-first for +booked /);
    expect(rows[1]).toBe("        openai:sim-client-faulty");
    expect(widest(text)).toBeLessThanOrEqual(79);
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
