import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { EpisodeView } from "../../../cli/tui/components/EpisodeView.tsx";
import { gridLayout } from "../../../cli/tui/components/NegotiationGrid.tsx";
import { panelText } from "../../../cli/tui/components/NegotiationPanel.tsx";
import { plainEpisode } from "../../../cli/tui/plain.ts";
import {
  type EpisodeModel,
  episodeModel,
  episodeSummary,
  type TrialRecord,
} from "../../../cli/tui/records/index.ts";
import { liveModel } from "../../../cli/tui/records/live.ts";
import { roleNamesOf } from "../../../cli/tui/records/roles.ts";
import type { ShopEpisodeModel } from "../../../cli/tui/records/shop.ts";
import { ReplayApp } from "../../../cli/tui/replay/ReplayApp.tsx";
import { StoreReplaySource } from "../../../cli/tui/replay/source.ts";
import { runEpisode } from "../../../environments/kernel/episode.ts";
import { createRng } from "../../../environments/kernel/rng.ts";
import { shopMachine } from "../../../environments/shop/machine.ts";
import type { ShopOutcome, ShopTask } from "../../../environments/shop/types.ts";
import type { Store } from "../../../environments/store/index.ts";
import type { LiveTurn } from "../../../environments/store/live.ts";
import { until } from "./fixtures.ts";
import { type HaggleRun, hagglePlan, haggleRun } from "./negotiation-fixtures.ts";

/** The longest names of the default hotel pool: a label that cuts one of them is a bug. */
const LONG_NAMES = [
  "SpringHill Suites by Marriott New York Greenwich Village",
  "Fairfield Inn & Suites by Marriott Brooklyn Park Slope",
  "TownePlace Suites by Marriott Queens Long Island City",
];

let run: HaggleRun;
let deadlocked: HaggleRun;
beforeAll(async () => {
  run = await haggleRun();
  // Out of steps while its offers are still being countered.
  deadlocked = await haggleRun({ maxSteps: "6", tasks: "2" });
});
afterAll(() => {
  run.store.close();
  deadlocked.store.close();
});
afterEach(() => cleanup());

function shopModel(record: TrialRecord): ShopEpisodeModel {
  const m = episodeModel(record);
  if (m.kind !== "shop") throw new Error(`got a ${m.kind} view: ${JSON.stringify(m).slice(0, 300)}`);
  return m;
}

function frame(model: EpisodeModel, o: { width?: number; height?: number; step?: number } = {}): string {
  const width = o.width ?? 100;
  const { lastFrame } = render(
    <Box width={width}>
      <EpisodeView model={model} step={o.step ?? model.steps} width={width} height={o.height ?? 34} />
    </Box>,
  );
  return plain(lastFrame());
}

function plain(f: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI escapes
  return (f ?? "").replace(/\u001b\[[0-9;]*m/g, "");
}

const money = (x: number) => `$${Number.isInteger(x) ? x : x.toFixed(2)}`;

/** A record whose negotiated listings (the booked one too) carry the pool's longest names. */
function withLongNames(r: TrialRecord): TrialRecord {
  const ids = (r.negotiations as { id: string }[]).map((n) => n.id);
  const named = <T extends { id: string; name: string }>(x: T): T =>
    ids.includes(x.id) ? { ...x, name: LONG_NAMES[ids.indexOf(x.id) % LONG_NAMES.length]! } : x;
  const booked = r.booked as { id: string; name: string } | null;
  return {
    ...r,
    shown: (r.shown as { id: string; name: string }[]).map(named),
    booked: booked ? named(booked) : null,
  };
}

describe("the negotiation panels of a shop episode", () => {
  it("draw each negotiation's ladder side by side at 100 columns: its rounds' prices, the deal marked, names whole", () => {
    const r = withLongNames(
      run.records.find((x) => x.paid !== null && (x.negotiations as unknown[]).length === 3)!,
    );
    const m = shopModel(r);
    const n = m.negotiations!;
    const f = frame(m, { width: 100, height: 34 });
    const rows = f.split("\n");
    expect(Math.max(...rows.map((l) => [...l].length))).toBeLessThanOrEqual(100);
    expect(f).toContain("offers · 3 negotiations");
    // Side by side: the three listings' first title lines share one row.
    const titleRow = rows.find((l) => l.startsWith(`${n[0]!.id} `))!;
    for (const x of n) expect(titleRow).toContain(`${x.id} `);
    // Each title wraps to the panel's width and is never cut: its lines put together are the name.
    const layout = gridLayout(
      n,
      { upToStep: Number.POSITIVE_INFINITY, over: true, deadlock: false },
      100,
      30,
    );
    for (const p of layout.panels) {
      expect(p.text.title.join(" ")).toBe(`${p.negotiation.id} ${p.negotiation.name}`);
      for (const line of p.text.title) expect(f).toContain(line);
    }
    expect(f).not.toMatch(/Greenwich…|Slope…|City…/);
    // The ladder's prices: every offer and counter in figures, the list price, cap and private cost.
    for (const x of n) {
      expect(f).toContain(`list ${money(x.listPrice)}`);
      expect(f).toContain(`cost ${money(x.cost)}`);
      expect(f).toContain(`C $${x.cost.toFixed(2)}`);
      const first = x.moves[0]!;
      const counter = x.moves[1]!;
      expect(f).toContain(`#${first.step} ${money(first.price!)}→${money(counter.price!)}`);
    }
    // The deal: a D on its ladder and its status, the booked one said so; the others say no deal or their deal.
    const booked = n.find((x) => x.booked)!;
    expect(booked.deal).toBe(r.paid);
    expect(f).toMatch(/seller-\d · list /);
    expect(f).toMatch(new RegExp(`deal \\${money(booked.deal!)} · booked`));
    expect(f).toMatch(/│[ ┄─b s]*D/);
    expect(f).toContain(`paid ${money(r.paid as number)} by a deal (list $`);
  });

  it("grow with the calls as the replay steps through them: no later price, no deal before it happens", () => {
    const r = run.records.find((x) => x.paid !== null)!;
    const m = shopModel(r);
    const dealStep = Math.max(...m.negotiations!.flatMap((x) => x.moves.map((mv) => mv.step)));
    const early = frame(m, { step: 4 });
    expect(early).toContain("call 4 of");
    expect(early).toMatch(/^ *open *$| {2}open/m);
    expect(early).not.toMatch(/deal \$/);
    const later = m.negotiations!.flatMap((x) => x.moves).filter((mv) => mv.step > 4 && mv.price !== null);
    for (const mv of later) expect(early).not.toContain(`#${mv.step} `);
    expect(frame(m, { step: 1 })).toContain("offers · no offer made yet");
    expect(frame(m, { step: m.steps })).toMatch(/deal \$[\d.]+ · booked/);
    expect(dealStep).toBeLessThan(m.steps);
  });

  it("stack when narrow, name what does not fit, and mark a deadlock", () => {
    const r = deadlocked.records.find((x) => x.deadlock === true)!;
    expect(r.endReason).toBe("out-of-steps");
    const m = shopModel(r);
    const f = frame(m, { width: 50, height: 30 });
    expect(Math.max(...f.split("\n").map((l) => [...l].length))).toBeLessThanOrEqual(50);
    expect(f).toMatch(/seller-\d · list /);
    expect(f).toMatch(/\bdeadlock\b/);
    expect(f).toMatch(/✗ failure — out of steps · deadlock$/m);
    expect(episodeSummary(r).outcome).toBe("out of steps");
    expect(episodeSummary(r).detail).toMatch(/ · \d negotiations, 0 deals, deadlock$/);
    // One panel a row: no two listing ids on one line.
    for (const line of f.split("\n"))
      expect(m.negotiations!.filter((x) => line.startsWith(`${x.id} `)).length).toBeLessThanOrEqual(1);
    const short = frame(m, { width: 50, height: 22 });
    expect(short).toMatch(/offers · \d negotiations · \d not shown/);
  });

  it("say how a negotiation the seller closed, or answered unreadably, stands", () => {
    const r = run.records.find((x) => x.paid !== null)!;
    const list = r.negotiations as {
      offers: Record<string, unknown>[];
      closed: boolean;
      deal: number | null;
    }[];
    const quit = {
      ...list[0]!,
      deal: null,
      closed: true,
      offers: [
        { step: 2, side: "buyer", move: "offer", price: 20, message: "", answer: "quit" },
        { step: 2, side: "seller", move: "quit", price: null, message: "No." },
      ],
    };
    const invalid = {
      ...list[1]!,
      deal: null,
      sellerInvalid: 1,
      offers: [
        { step: 3, side: "buyer", move: "offer", price: 21, message: "", answer: "invalid" },
        {
          step: 3,
          side: "seller",
          move: "invalid",
          price: null,
          message: "a deal at a price the buyer never offered",
        },
      ],
    };
    const m = shopModel({ ...r, negotiations: [quit, invalid, list[2]!] });
    const t = panelText(
      m.negotiations![0]!,
      { upToStep: Number.POSITIVE_INFINITY, over: true, deadlock: false },
      40,
      2,
    );
    expect(t.moves).toEqual(["#2 $20→quit"]);
    expect(t.status.lines.join(" ")).toContain("closed by the seller");
    const u = panelText(
      m.negotiations![1]!,
      { upToStep: Number.POSITIVE_INFINITY, over: true, deadlock: false },
      40,
      2,
    );
    expect(u.moves).toEqual(["#3 $21→invalid"]);
    expect(u.status.lines.join(" ")).toContain("1 unreadable seller answer");
    expect(u.status.color).toBe("red");
  });

  it("keep a plain shop's summary, and add the negotiations to the summary and the plain lines", () => {
    const r = run.records.find((x) => x.paid !== null)!;
    const s = episodeSummary(r);
    expect(s.outcome).toMatch(new RegExp(`^booked \\${money(r.paid as number)} [✓✗]$`));
    expect(s.detail).toMatch(/ · 3 negotiations, [1-3] deals?$/);
    const lines = plainEpisode(shopModel(r));
    expect(
      lines.some((l) =>
        /^negotiation \w+ .* · seller-[12] · list \$\d+ · cap \$\d+ · cost \$[\d.]+$/.test(l),
      ),
    ).toBe(true);
    expect(lines.some((l) => /^#\d+ buyer offers \$[\d.]+ “Would you take/.test(l))).toBe(true);
    expect(lines.some((l) => /^ {3}seller counter \$[\d.]+/.test(l))).toBe(true);
    expect(lines.some((l) => /^ {3}deal \$[\d.]+ · booked$/.test(l))).toBe(true);
  });
});

describe("the booked listing's name", () => {
  it("wraps in the verdict rather than being cut, with offers and in a plain shop, and stays one line where it fits", () => {
    const r = withLongNames(run.records.find((x) => x.paid !== null)!);
    const { negotiations: _n, paid: _p, deadlock: _d, ...plainRecord } = r;
    for (const record of [r, plainRecord]) {
      const m = shopModel(record);
      expect(m.negotiations === null).toBe(record === plainRecord);
      const b = m.booked!;
      expect(LONG_NAMES).toContain(b.name);
      const f = frame(m, { width: 50, height: 30 });
      const verdict = f.slice(f.search(/[✓✗] (success|failure) — booked/));
      // Wrapped at spaces: its lines put together hold the name whole.
      expect(verdict.split("\n").slice(0, 3).join(" ")).toContain(`booked ${b.id} ${b.name}`);
      expect(verdict).toMatch(/\(page \d+, rank \d+\)/);
      expect(frame(m, { width: 200 })).toMatch(
        / — booked \w+ .* · \$\d+ · \d★ · \w+ \(page \d+, rank \d+\)$/m,
      );
    }
  });
});

describe("offers in the replay of a stored run", () => {
  it("lists the run's episodes with what was paid and opens one with its ladders", async () => {
    const r = run.store.getRun(run.plan.runId)!;
    const roleNames = roleNamesOf(r.config);
    expect(roleNames).toBeDefined();
    const source = new StoreReplaySource(run.store as Store, {
      id: r.id,
      env: r.env,
      total: r.total,
      done: r.done,
      agents: r.agents,
      roleNames,
    });
    const seq = Number(run.records.find((x) => x.paid !== null)!.seq);
    const stored = source.episode(seq)!;
    const model = stored.model as ShopEpisodeModel;
    // As the record has them, each seller named by the run's design ("rule:linear (seller-1)").
    expect(model.negotiations).toEqual(
      shopModel({ ...run.records.find((x) => Number(x.seq) === seq)!, roleNames }).negotiations,
    );
    for (const n of model.negotiations!) expect(n.seller).toMatch(/^\S+:\S+ \(seller-\d\)$/);
    const app = render(<ReplayApp source={source} width={100} height={40} openSeq={seq} playMs={5} />);
    const f = plain(await until(app, /deal \$[\d.]+ · booked/, 60_000));
    expect(f).toMatch(/rule:\w+ \(seller-\d\)/);
    expect(f).toContain(`── episode #${seq} · haggler · shop`);
    expect(f).toContain("offers · 3 negotiations");
    expect(f).toMatch(/C \$[\d.]+│/);
    expect(f).toMatch(/paid \$[\d.]+ by a deal \(list \$\d+\) · [✓✗] price cap/);
  });
});

describe("offers live", () => {
  it("replays an episode's turns in flight through the shop's rules: the pending offer, then exactly the record", async () => {
    const plan = hagglePlan({ tasks: "1" });
    const task = plan.tasks[0] as ShopTask;
    const turns: LiveTurn[] = [];
    const result = await runEpisode<ShopOutcome>(
      shopMachine,
      { task },
      plan.agents[0]!.players,
      { rng: createRng(1), trialKey: "k", replicate: 0 },
      {
        onTurn: (e) =>
          turns.push({
            turn: e.turn,
            role: e.role,
            action: e.action,
            summary: "",
            at: 0,
            ...(e.error !== undefined ? { error: e.error } : {}),
          }),
      },
    );
    const at = (k: number) =>
      liveModel("shop", { seq: 0, agent: "haggler", startedAt: 0, turns: turns.slice(0, k) }, task);
    // The shopper's first offers: the seller of the first is answering.
    const firstOffer = turns.findIndex(
      (t) => t.role === "shopper" && JSON.stringify(t.action).includes("offer"),
    );
    const waiting = at(firstOffer + 1) as ShopEpisodeModel;
    expect(waiting.kind).toBe("shop");
    expect(waiting.live).toBe(true);
    expect(waiting.waiting).toMatch(/^seller-\d is answering an offer of \$\d+ to \w+$/);
    const first = waiting.negotiations![0]!;
    expect(first.pending).not.toBeNull();
    // The offer is on the ladder already, in a round of its own.
    expect(first.ladder.at(-1)).toMatchObject({ role: "buyer", action: "BUY", price: first.pending!.price });
    const f = frame(waiting, { width: 100, height: 19 });
    expect(f).toContain("in flight");
    expect(f).toMatch(/in progress · \d+ calls · seller-\d is answering an offer/);
    expect(f).toMatch(/seller-\d is answering \$\d+…/);
    // The axes take in the list price before the seller has answered (they do not jump when it does).
    expect(f).toContain(`$${first.listPrice.toFixed(2)}│`);
    // Every turn in: the negotiations are the record's.
    const all = at(turns.length) as ShopEpisodeModel;
    const negotiations = result.output.negotiations!;
    expect(all.negotiations!.map((n) => [n.id, n.deal, n.moves.length])).toEqual(
      negotiations.map((n) => [n.id, n.deal, n.offers.length]),
    );
    // A plain shop's episodes in flight keep their generic list of turns.
    const plainTask = { ...task, rules: { ...task.rules, offers: undefined } };
    expect(liveModel("shop", { seq: 0, agent: "x", startedAt: 0, turns: [] }, plainTask).kind).toBe(
      "generic",
    );
  });
});
