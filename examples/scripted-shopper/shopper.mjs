#!/usr/bin/env node
// A scripted shopper for `bazaar run shop --agent 'exec:node examples/scripted-shopper/shopper.mjs'`.
//
// bazaar starts this program once per trial. It finds everything it needs in its environment:
//   BAZAAR_MCP_URL     the episode's private MCP endpoint (Streamable HTTP); the URL is the only
//                      credential, and it is valid for this episode only
//   BAZAAR_TASK        the task as text (the system prompt, a blank line, the request)
//   BAZAAR_TASK_FILE   the same as JSON: {env, role, instructions, request, messages, tools}
//   BAZAAR_MCP_CONFIG  a {"mcpServers": {"bazaar": {"type": "http", "url": …}}} file, for agents
//                      that take an MCP config (e.g. `claude -p --mcp-config "$BAZAAR_MCP_CONFIG"`)
// and nothing else of bazaar's environment, except the variables `--pass-env` names (an API key).
//
// It plays like a careful, rule-following shopper, with no model: it searches with every
// requirement of the request as a filter (one search per acceptable area), opens the few cheapest
// results to check them, and books the best rated of those; when a search finds nothing, it gives
// up and says why. Swap steps 1 and 2 below for your own policy — or for your model's tool calls —
// and keep the rest: connect, call tools until a result says the episode is over, exit 0.
//
// How the program ends matters to the run:
//   - exit 0 after the episode is over: the trial holds whatever the episode ended with;
//   - exit 0 before it is over: the agent's own non-answer (a non-response, with this program's
//     last output);
//   - a non-zero exit or a crash: a failed trial (missing data), which the same command plays again.
//
// Outside this repository, install the one dependency first: npm install @modelcontextprotocol/sdk
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const task = JSON.parse(readFileSync(process.env.BAZAAR_TASK_FILE, "utf8"));
if (task.env !== "shop") {
  // A non-zero exit fails the trial: right for a program started on the wrong environment.
  console.error(`this shopper plays shop episodes, not ${task.env}`);
  process.exit(2);
}

const client = new Client({ name: "scripted-shopper", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(process.env.BAZAAR_MCP_URL)));

/**
 * One tool call. Each call but get_task is one step of the episode; its result is what the
 * environment shows next, as text (what a model would read) and, in `_meta`, as bazaar's structured
 * view (what this script reads) and whether the episode is over.
 */
async function call(name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content?.[0]?.text ?? "";
  console.log(`> ${name} ${JSON.stringify(args)}\n${text}\n`);
  return {
    text,
    isError: result.isError === true,
    over: result._meta?.["bazaar/over"] === true,
    view: result._meta?.["bazaar/view"],
  };
}

/** What the environment answered to the latest call, as its structured view holds it. */
function lastResult(view) {
  return view.turns.at(-1).calls.at(-1).result;
}

// get_task gives the task again and the view before any step (the view says the request's
// requirements and the rules: page size, step budget).
let { view } = await call("get_task");
const { constraints } = view.request;
const budget = view.rules.maxSteps;

const filters = {
  ...(constraints.maxPrice !== null ? { maxPrice: constraints.maxPrice } : {}),
  ...(constraints.minStars !== null ? { minStars: constraints.minStars } : {}),
  ...(constraints.amenities.length > 0 ? { amenities: constraints.amenities } : {}),
  sort: "price_low",
};
const areas = constraints.areas ?? [null];

let over = false;
let last = null;
async function step(name, args) {
  last = await call(name, args);
  over = last.over;
  if (last.view) view = last.view;
  return last;
}

// 1. Search: one search per acceptable area, every other requirement as a filter.
const candidates = new Map();
for (const area of areas) {
  const r = await step("search", area === null ? filters : { area, ...filters });
  if (over) break;
  const found = lastResult(view);
  if (!r.isError && found.kind === "results") for (const card of found.cards) candidates.set(card.id, card);
}

// 2. Open the cheapest few (leaving a step for the booking), then book the best rated of them.
if (!over) {
  const cheapest = [...candidates.values()].sort((a, b) => a.price - b.price);
  const stepsLeft = budget - view.steps;
  const opened = [];
  for (const card of cheapest.slice(0, Math.min(3, stepsLeft - 1))) {
    const r = await step("view", { id: card.id });
    if (over) break;
    const shown = lastResult(view);
    if (!r.isError && shown.kind === "listing") opened.push(shown.listing);
  }
  if (!over) {
    if (opened.length === 0)
      await step("give_up", { reason: "No listing meets every requirement of the request." });
    else {
      const best = opened.reduce((a, b) => (b.reviewScore > a.reviewScore ? b : a));
      await step("book", { id: best.id });
    }
  }
}

// The last result says the episode is over, with its outcome; calls after it change nothing.
await client.close();
if (!over) {
  // Not expected: leave it to bazaar to record (exit 0 now is this agent's non-answer).
  console.log("the episode is not over, but this shopper has nothing more to do");
}
