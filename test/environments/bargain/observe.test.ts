import { describe, expect, it } from "vitest";
import { resolveBargainPlayer } from "../../../agents/bargain/registry.ts";
import { bargainSimPlugin } from "../../../agents/serve-sim/plugins/bargain.ts";
import { defaultPriceHistoryCatalog } from "../../../datasets/price-history/index.ts";
import { observeBargain } from "../../../environments/bargain/observe.ts";
import { buildBargainTasks } from "../../../environments/bargain/scenarios.ts";
import { parseBargainReply, renderAction, renderMessage } from "../../../environments/bargain/text.ts";
import type { BargainView } from "../../../environments/bargain/types.ts";
import type { Acted, Agent, Message, Observation } from "../../../environments/kernel/types.ts";
import { play } from "./helpers.ts";

/** Records every observation the wrapped agent gets. */
class Recorder implements Agent<BargainView, unknown> {
  readonly seen: Observation<BargainView>[] = [];
  constructor(private readonly inner: Agent<unknown, unknown>) {}
  get id() {
    return this.inner.id;
  }
  act(o: Observation<BargainView>, ctx: Parameters<Agent<unknown, unknown>["act"]>[1]) {
    this.seen.push({ view: o.view, messages: o.messages });
    return this.inner.act(o, ctx) as Acted<unknown>;
  }
}

const tasks = buildBargainTasks({ seed: 5, scenarios: 12 }, defaultPriceHistoryCatalog());

async function observations(buyer: string, seller: string): Promise<Observation<BargainView>[]> {
  const out: Observation<BargainView>[] = [];
  for (const t of tasks) {
    const b = new Recorder(resolveBargainPlayer(buyer, "buyer").agent);
    const s = new Recorder(resolveBargainPlayer(seller, "seller").agent);
    await play(b, s, t);
    out.push(...b.seen, ...s.seen);
  }
  return out;
}

describe("reading the observation back out of a conversation (serve-sim)", () => {
  it("is the exact inverse of what the machine shows either side", async () => {
    const seen = [
      ...(await observations("og-narrator", "sim:llm")),
      ...(await observations("sim:anchored", "rule:tit-for-tat")),
    ];
    expect(seen.length).toBeGreaterThan(100);
    for (const o of seen) expect(observeBargain(o.messages)).toEqual({ messages: o.messages, view: o.view });
  });

  it("reads the agent's own earlier moves as tool calls or paper-format replies", async () => {
    const [o] = (await observations("rule:linear", "rule:hardliner")).filter(
      (x) => x.view.role === "buyer" && x.view.history.length === 4,
    );
    const asTools: Message[] = o!.messages.map((m) => {
      if (m.role !== "assistant") return m;
      const [talk, action] = m.content.split("\n");
      const price = Number(/\$([\d.]+)/.exec(action!)![1]);
      return { role: "assistant", content: `offer(${JSON.stringify({ price, talk: talk!.slice(6) })})` };
    });
    expect(observeBargain(asTools)?.view).toEqual(o!.view);
    const asText = o!.messages.map((m) =>
      m.role === "assistant" ? { ...m, content: `Thought: hmm.\n${m.content}` } : m,
    );
    expect(observeBargain(asText)?.view).toEqual(o!.view);
  });

  it("gives null for conversations this environment never writes", async () => {
    const [o] = await observations("rule:linear", "rule:linear");
    const msgs = o!.messages;
    expect(observeBargain([{ role: "system", content: "You are helpful." }, ...msgs.slice(1)])).toBeNull();
    expect(observeBargain(msgs.slice(0, 1))).toBeNull();
    expect(observeBargain([...msgs, { role: "user", content: "Talk: hi\nAction: [DANCE]" }])).toBeNull();
    expect(observeBargain([msgs[0]!, { role: "user", content: "Inventory List:\nnothing" }])).toBeNull();
  });

  it("leaves out an own reply that was no move when the talk went on after it (a shop's seller answers again)", async () => {
    const [o] = (await observations("rule:linear", "rule:linear")).filter(
      (x) => x.view.role === "seller" && x.view.history.length === 3,
    );
    const [b1, , b2] = o!.view.history;
    const withOwn = (content: string) => o!.messages.map((m, i) => (i === 3 ? { ...m, content } : m));
    // The shop showed the seller its pair's valid moves only: the offer, then the next offer.
    const expected = { ...o!.view, history: [b1, b2] };
    expect(observeBargain(withOwn("Let me think about it."))?.view).toEqual(expected);
    const fakeDeal = renderMessage("Deal.", renderAction("seller", "deal", 1, o!.view.codename));
    expect(observeBargain(withOwn(fakeDeal))?.view).toEqual(expected);
    // Nothing after it: not a conversation either environment sends.
    expect(observeBargain([...o!.messages.slice(0, 3), { role: "assistant", content: "hmm" }])).toBeNull();
  });

  it("answers with the environment's tool call and the same move in the paper's text format", async () => {
    const [o] = (await observations("rule:linear", "rule:boulware")).filter((x) => x.view.role === "seller");
    const reply = bargainSimPlugin.reply({ type: "offer", price: 12.5, talk: "Twelve fifty." }, o!);
    expect(reply).toMatchObject({
      kind: "action",
      tool: "offer",
      args: { price: 12.5, talk: "Twelve fifty." },
    });
    const text = (reply as { text: string }).text;
    expect(parseBargainReply(text, "seller", o!.view.codename)).toMatchObject({
      ok: true,
      type: "offer",
      price: 12.5,
    });
    expect(bargainSimPlugin.reply({ type: "quit", talk: "Bye." }, o!)).toMatchObject({
      tool: "quit",
      args: { talk: "Bye." },
    });
    expect(bargainSimPlugin.reply({ type: "reply", text: "garbled" }, o!)).toEqual({
      kind: "text",
      text: "garbled",
    });
    expect(Object.keys(bargainSimPlugin.models)).toContain("sim-bargain-boulware");
    expect(Object.keys(bargainSimPlugin.models)).toContain("sim-bargain-llm");
  });
});
