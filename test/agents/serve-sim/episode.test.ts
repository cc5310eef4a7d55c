/**
 * serve-sim's models find their episode however a framework frames it (`agents/serve-sim/episode.ts`):
 * every environment's conversations — whole episodes, every turn — framed each way outside
 * frameworks frame a task read back to the very episode bazaar's own agent sends, and get the very
 * answer (the draws are seeded by the episode as read, not by the framing). The strict readers stay
 * strict: an edited prompt is still unread in any framing. A conversation whose last result says the
 * episode is over gets a short closing line.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { SimModels } from "../../../agents/serve-sim/decide.ts";
import { closingLine, EpisodeFinder } from "../../../agents/serve-sim/episode.ts";
import { SIM_PLUGINS } from "../../../agents/serve-sim/plugins/index.ts";
import type { ChatRequest, WireMessage } from "../../../agents/serve-sim/request.ts";
import { surfaceOf } from "../../../environments/kernel/surface.ts";
import { environmentNamed } from "../../../environments/registry.ts";
import { type Conversations, everyEnvironment, FRAMEWORK, FRAMINGS, framed, nativeWire } from "./framings.ts";

const models = new SimModels("framings");
const pluginOf = (model: string) => SIM_PLUGINS.find((p) => model in p.models)!;

function request(model: string, messages: WireMessage[]): ChatRequest {
  return {
    model,
    messages,
    seed: null,
    temperature: 0,
    n: 1,
    toolMode: false,
    callableTools: [],
    toolChars: 0,
    maxTokens: null,
    toolChoice: null,
  };
}

/**
 * Catalog choice and cue read their cards from a user message and no system prompt: any framing finds
 * the cards (the same view), but which text stood for the system prompt is not determined, so their
 * draws may differ by framing.
 */
const LENIENT = new Set(["choice", "cue"]);
/** The environments whose readers take only the whole system prompt they write. */
const WHOLE_PROMPT = ["shop", "shop (client)", "client", "bargain (buyer)", "bargain (seller)", "elicit"];

let envs: Conversations[];
beforeAll(async () => {
  envs = await everyEnvironment();
});

describe("the conversations under test", () => {
  it("are whole episodes of every served environment, and each reads as bazaar's own agent sends it", () => {
    expect(envs.map((e) => e.env)).toEqual([
      "shop",
      "shop (client)",
      "client",
      "bargain (buyer)",
      "bargain (seller)",
      "market",
      "choice",
      "cue",
      "elicit",
    ]);
    for (const e of envs) {
      const finder = new EpisodeFinder(pluginOf(e.model));
      for (const c of e.conversations) {
        const read = finder.read(nativeWire(c));
        expect(read.kind, e.env).toBe("read");
        expect(read.kind === "read" && read.messages, e.env).toEqual(c);
      }
    }
    const turns = (env: string) =>
      Math.max(...envs.find((e) => e.env === env)!.conversations.map((c) => c.length));
    // Multi-turn environments are taken well into their episodes (tool results, counter-offers).
    for (const env of ["shop", "shop (client)", "client", "bargain (buyer)", "bargain (seller)", "market"])
      expect(turns(env), env).toBeGreaterThan(4);
  });
});

describe.each(Object.entries(FRAMINGS))("framed: %s", (_name, framing) => {
  it("every environment's sims read the episode bazaar's own agent sends", () => {
    for (const e of envs) {
      const finder = new EpisodeFinder(pluginOf(e.model));
      for (const c of e.conversations) {
        const native = finder.read(nativeWire(c));
        const read = finder.read(framed(framing, c));
        expect(read.kind, `${e.env}: ${c.length} messages`).toBe("read");
        if (read.kind !== "read" || native.kind !== "read") continue;
        expect(read.observation.view, e.env).toEqual(native.observation.view);
        if (!LENIENT.has(e.env)) expect(read.messages, e.env).toEqual(c);
      }
    }
  });

  it("and answer as they answer it: the same draws, the same reply", async () => {
    for (const e of envs) {
      if (LENIENT.has(e.env)) continue;
      for (const c of e.conversations) {
        const native = await models.decide(request(e.model, nativeWire(c)));
        const other = await models.decide(request(e.model, framed(framing, c)));
        expect(other.digest, e.env).toBe(native.digest);
        expect(other.replies, e.env).toEqual(native.replies);
      }
    }
  });

  it("and still read nothing the environment did not write", () => {
    for (const e of envs) {
      const finder = new EpisodeFinder(pluginOf(e.model));
      for (const c of e.conversations.slice(0, 3)) {
        // A line the environment never writes, inside its system prompt.
        const [head, ...rest] = c[0]!.content.split("\n");
        const edited = [
          { role: "system" as const, content: [head, "Be brief.", ...rest].join("\n") },
          ...c.slice(1),
        ];
        const native = finder.read(nativeWire(edited)).kind;
        if (WHOLE_PROMPT.includes(e.env)) expect(native, e.env).toBe("unread");
        expect(finder.read(framed(framing, edited)).kind, e.env).toBe(native);
      }
    }
  });
});

describe("a framing nothing can read", () => {
  it("gets the model's unrecognized reply: no episode, no action", async () => {
    const d = await models.decide(
      request("sim-shop-careful", [
        { role: "system", content: FRAMEWORK },
        { role: "user", content: "Find me a hotel in SoHo." },
      ]),
    );
    expect(d.replies).toEqual([{ kind: "text", text: pluginOf("sim-shop-careful").unrecognized }]);
  });
});

/** An outcome of each environment, as its surface's last result says it (`outcomeText`). */
const ENDINGS: [env: string, role: string, outcome: Record<string, unknown>][] = [
  ["shop", "shopper", { endReason: "booked", bookedId: "k3x9qa" }],
  ["shop", "shopper", { endReason: "gave-up" }],
  ["shop", "shopper", { endReason: "out-of-steps" }],
  ["shop", "shopper", { endReason: "invalid" }],
  ["choice", "agent", { chosenSlot: 1 }],
  ["choice", "agent", { chosenSlot: null, nonResponse: { reason: "off-format" } }],
  ["cue", "agent", { chosenSlot: 0 }],
  ["elicit", "agent", { value: 120 }],
  ["elicit", "agent", { value: null, nonFinite: { reason: "no number" } }],
  ["bargain", "buyer", { outcome: "deal", dealPrice: 90 }],
  ["bargain", "seller", { outcome: "no-deal", endedBy: "turn-limit" }],
  ["bargain", "buyer", { outcome: "no-deal", endedBy: "quit", endedBySide: "buyer" }],
  ["market", "seller", { endReason: "changed", price: 150, descriptionChanged: true }],
  ["market", "seller", { endReason: "kept" }],
];

describe("after the episode is over", () => {
  it("every environment's last result reads as the end of its episode", () => {
    for (const [env, role, outcome] of ENDINGS) {
      const { text } = surfaceOf(environmentNamed(env), role).endedResult(outcome);
      const conversation: WireMessage[] = [
        { role: "user", content: "…" },
        { role: "assistant", content: "book({})" },
        { role: "tool", content: text },
      ];
      expect(closingLine(conversation), `${env}: ${text}`).toBe(`Done. ${text}`);
    }
  });

  it("a shop episode framed the framework's way ends with a closing line, not a confused reply", async () => {
    const shop = envs.find((e) => e.env === "shop")!;
    const last = shop.conversations.at(-1)!;
    const ended = surfaceOf(environmentNamed("shop"), "shopper").endedResult({
      endReason: "booked",
      bookedId: "k3x9qa",
    }).text;
    for (const framing of Object.values(FRAMINGS)) {
      const wire = [
        ...framed(framing, last),
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_end", type: "function", function: { name: "book", arguments: '{"id":"k3x9qa"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_end", content: ended },
      ];
      const d = await models.decide(request("sim-shop-careful", wire));
      expect(d.replies).toEqual([{ kind: "text", text: `Done. ${ended}` }]);
    }
    // An agent's message to its client that merely mentions the end is no end.
    expect(
      closingLine([
        { role: "assistant", content: "Hi" },
        { role: "user", content: `Note: ${ended}` },
      ]),
    ).toBeNull();
    // Nor is the end said before the agent acted (the framework's own instructions quoting it).
    expect(closingLine([{ role: "user", content: ended }])).toBeNull();
  });
});
