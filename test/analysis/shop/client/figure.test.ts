/**
 * The regret-against-messages figure: a point per cell at its means with both intervals, and every
 * name whole however long (an LLM shopper for an LLM client), with what was left out said on it.
 */
import { describe, expect, it } from "vitest";
import { renderSvg } from "../../../../analysis/report/index.ts";
import {
  analyzeClients,
  type ClientEpisode,
  regretMessagesChart,
  regretPoints,
} from "../../../../analysis/shop/client/index.ts";

const SHOPPERS = ["openai:gpt-4o-mini-2024-07-18-with-a-very-long-deployment-name", "sim:careful"];
const CLIENTS = ["openai:sim-client-terse-served-from-a-long-endpoint-label", "sim:faulty"];

function episodes(): ClientEpisode[] {
  const out: ClientEpisode[] = [];
  for (const [s, shopper] of SHOPPERS.entries())
    for (const [c, client] of CLIENTS.entries()) {
      for (let t = 0; t < 6; t++)
        out.push({
          agent: `${shopper} for ${client}`,
          shopper,
          client: { spec: client, persona: "terse", patience: 6 },
          taskId: `t${t}`,
          family: "open",
          replicate: 0,
          endReason: "booked",
          success: t % 2 === 0,
          surplus: t % 2 === 0 ? 80 : 0,
          bestAdmissible: { id: "x", surplus: 100 },
          regret: t % 2 === 0 ? 20 + 10 * s : 100,
          uncovered: { hidden: [], learned: [], metByLuck: [] },
          burden: { messages: s === 0 ? 2 + (t % 3) + c : 0, repeats: 0, patienceOut: false },
          clientFaults: client === "sim:faulty" && t === 0 ? [{ step: 1, kind: "invents", detail: "" }] : [],
          conversation: [],
        } as unknown as ClientEpisode);
    }
  return out;
}

describe("regret against messages", () => {
  const a = analyzeClients(episodes(), { draws: 0 });

  it("puts each cell at its means, with both task-clustered intervals", () => {
    const points = regretPoints(a);
    expect(points).toHaveLength(4);
    for (const p of points) {
      const cell = a.cells.find((c) => c.agent === p.agent)!;
      expect([p.messages, p.regret]).toEqual([cell.burden.messages.estimate, cell.regret.estimate]);
      expect(p.regretLow).toBe(cell.regret.low);
      expect(p.messagesHigh).toBe(cell.burden.messages.high ?? cell.burden.messages.estimate);
    }
  });

  it("names every shopper and client whole, and says what it left out", async () => {
    const svg = await renderSvg(regretMessagesChart(a)!);
    for (const name of [...SHOPPERS, ...CLIENTS]) expect(svg).toContain(`>${name}<`);
    expect(svg).toContain("2 episodes with a client fault left out");
    expect(regretMessagesChart(analyzeClients([], { draws: 0 }))).toBeNull();
  });
});
