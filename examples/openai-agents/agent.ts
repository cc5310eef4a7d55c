/**
 * An agent on the OpenAI Agents SDK (`@openai/agents`) that plays the episodes of `bazaar serve <env>`
 * over MCP, framed the SDK's way: the agent has its own instructions, and the task — the `get_task`
 * text, bazaar's instructions and request together — is the user's input. Each MCP session is one
 * episode: the agent opens a session (`MCPServerStreamableHttp`), claims the next trial with
 * `get_task`, lets `run()` loop model ⇄ tools until the model answers without a tool call, closes the
 * session and opens the next, until the server says the run is complete (or is gone).
 *
 *   node --import tsx examples/openai-agents/agent.ts --url http://127.0.0.1:8765/mcp --model gpt-4o-mini
 *
 * The model is any Chat Completions endpoint: `--model`/OPENAI_MODEL, `--base-url`/OPENAI_BASE_URL,
 * OPENAI_API_KEY. See README.md beside this file.
 */
import { parseArgs } from "node:util";
import {
  Agent,
  MaxTurnsExceededError,
  MCPServerStreamableHttp,
  OpenAIProvider,
  Runner,
  setTraceProcessors,
  setTracingDisabled,
} from "@openai/agents";

const { values: opts } = parseArgs({
  options: {
    url: { type: "string", default: process.env.BAZAAR_MCP_URL ?? "http://127.0.0.1:8765/mcp" },
    model: { type: "string", default: process.env.OPENAI_MODEL ?? "gpt-4o-mini" },
    "base-url": { type: "string", default: process.env.OPENAI_BASE_URL },
    // Model calls one episode may take (each tool round is one): a model that never stops is cut here.
    "max-turns": { type: "string", default: "60" },
    // A model that stops before its episode is over leaves the trial failed, and the server hands it
    // to a later session: give up after this many such episodes in a row rather than loop forever.
    "max-unfinished": { type: "string", default: "3" },
  },
});

// The SDK exports traces of every run to OpenAI's servers by default (importing `@openai/agents`
// installs that exporter): an evaluation's transcripts stay on this machine, so tracing is off and
// the exporter removed. bazaar stores every episode itself.
setTracingDisabled(true);
setTraceProcessors([]);

// Chat Completions, not the Responses API: what OpenAI-compatible servers (vLLM, Ollama, llama.cpp,
// bazaar serve-sim) speak.
const runner = new Runner({
  modelProvider: new OpenAIProvider({
    useResponses: false,
    ...(opts["base-url"] ? { baseURL: opts["base-url"] } : {}),
  }),
  model: opts.model,
  tracingDisabled: true,
});

/** The agent's own instructions: the task itself comes as the user's input, as `get_task` gives it. */
const INSTRUCTIONS =
  "You are an autonomous agent working in a simulated marketplace. The user's message is your task: " +
  "its rules, the tools it names and what it asks of you. Carry it out with the tools you have, one " +
  "step after another, until a tool result says the task is over; then reply with one short line.";

const textOf = (content: unknown) =>
  (content as { type: string; text?: string }[]).map((c) => (c.type === "text" ? c.text : "")).join("\n");

/**
 * One episode on a new MCP session. `complete`: why there are no more episodes (the server says the
 * run is complete, or, after the first episode, it is gone: it exits once every trial is stored).
 */
async function playEpisode(
  first: boolean,
): Promise<{ complete: string } | { complete: null; over: boolean; last: string }> {
  let over = false;
  let last = "";
  const session = new MCPServerStreamableHttp({
    url: opts.url,
    name: "bazaar",
    cacheToolsList: true,
    // get_task is how the agent gets its task (below); it is not one of the environment's tools.
    toolFilter: { blockedToolNames: ["get_task"] },
    // Every result carries `_meta["bazaar/over"]`; the model sees the text only, as a native agent does.
    customDataExtractor: ({ resultMeta, toolOutput }) => {
      if (resultMeta?.["bazaar/over"] === true) over = true;
      last = (toolOutput as { text?: string } | undefined)?.text ?? last;
      return undefined;
    },
  });
  try {
    let task: Awaited<ReturnType<typeof session.callToolResult>>;
    try {
      await session.connect();
      // The first call claims the next trial. get_task is not a step; an error means none is left.
      task = await session.callToolResult("get_task", {});
    } catch (err) {
      if (first) throw err;
      return { complete: `the server is gone (${err instanceof Error ? err.message : String(err)})` };
    }
    if (task.isError) return { complete: textOf(task.content) };
    const agent = new Agent({ name: "bazaar-shopper", instructions: INSTRUCTIONS, mcpServers: [session] });
    try {
      const result = await runner.run(agent, textOf(task.content), { maxTurns: Number(opts["max-turns"]) });
      if (!over) last = String(result.finalOutput ?? "");
    } catch (err) {
      if (!(err instanceof MaxTurnsExceededError)) throw err; // a model that never stops: unfinished
    }
    return { complete: null, over, last };
  } finally {
    // Closing ends the MCP session (an HTTP DELETE). Ended before its episode is over, the trial is
    // failed, not answered, and a later session plays it.
    await session.close().catch(() => {});
  }
}

let played = 0;
let unfinished = 0;
for (;;) {
  const episode = await playEpisode(played === 0);
  if (episode.complete !== null) {
    console.log(`done: ${played} episode${played === 1 ? "" : "s"} played; ${episode.complete}`);
    break;
  }
  played++;
  unfinished = episode.over ? 0 : unfinished + 1;
  console.log(`episode ${played}${episode.over ? "" : " (unfinished)"}: ${episode.last.split("\n")[0]}`);
  if (unfinished >= Number(opts["max-unfinished"])) {
    console.error(`stopping: ${unfinished} episodes in a row ended before the environment said so`);
    process.exit(1);
  }
}
